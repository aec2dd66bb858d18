"""FineState-Bench made live: Gymnasium environments over real UI controls.

Importing this package is cheap on purpose: the `.pth` hook imports
`finestate_env._gymnasium_hook` at interpreter start, so nothing heavy
(Playwright, numpy) may be imported here.
"""

__version__ = "0.1.0"

ENV_IDS = ("FineState-Web-v0", "FineState-Mobile-v0", "FineState-Desktop-v0")
