"""make docker's last step: `finestate serve-env` in the image, checked from the host.

Starts the image's server on the host's network with a token (any address but loopback
needs one), waits for /health, checks that a route other than /health refuses a request
without the token, then plays one episode over the WebSocket /ws with OpenEnv's own
GenericEnvClient (the token in its headers): reset a seeded checkbox page, read the target's
boxes from the session's state, click the goal, and expect the exact reward 1.0. Run by an
interpreter that has openenv (the host's .venv: make install); the container is stopped at
the end.

    .venv/bin/python docker/serve_check.py --image finestate-env [--port 8765]
"""

from __future__ import annotations

import argparse
import json
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request


def wait_health(url: str, container: str, timeout_s: float = 180.0) -> float:
    started = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            pass
        running = subprocess.run(["docker", "inspect", "-f", "{{.State.Running}}", container],
                                 capture_output=True, text=True).stdout.strip()
        if running != "true" or time.monotonic() - started > timeout_s:
            logs = subprocess.run(["docker", "logs", container], capture_output=True,
                                  text=True)
            raise SystemExit(f"serve-env in the image gave no /health:\n"
                             f"{(logs.stdout + logs.stderr)[-3000:]}")
        time.sleep(0.5)


def episode(url: str, token: str) -> dict:
    from openenv.core.generic_client import GenericEnvClient

    with GenericEnvClient(base_url=url, headers={"Authorization": f"Bearer {token}"}).sync() \
            as env:
        first = env.reset(seed=0, component="checkbox")
        state = env.state()
        x0, y0, x1, y1 = state["boxes"]["current"]["goal"]
        point = [(x0 + x1) / 2, (y0 + y1) / 2]
        result = env.step({"p0": point, "p1": point})
        return {"instruction": first.observation["instruction"],
                "size": [first.observation["width"], first.observation["height"]],
                "screenshot_b64_chars": len(first.observation["screenshot_png_b64"]),
                "reward": result.reward, "done": result.done}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--image", default="finestate-env")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    token = secrets.token_hex(16)
    url = f"http://127.0.0.1:{args.port}"
    container = subprocess.run(
        ["docker", "run", "-d", "--rm", "--network", "host", "--shm-size", "1g",
         "-e", f"FINESTATE_ENV_TOKEN={token}", args.image, "finestate", "serve-env",
         "--host", "0.0.0.0", "--port", str(args.port), "--token-env", "FINESTATE_ENV_TOKEN"],
        capture_output=True, text=True, check=True).stdout.strip()
    try:
        ready_s = wait_health(url, container)
        try:
            urllib.request.urlopen(url + "/schema", timeout=10)
            refused = None
        except urllib.error.HTTPError as exc:
            refused = exc.code
        if refused != 401:
            raise SystemExit(f"/schema without the token answered {refused}, not 401")
        started = time.monotonic()
        played = episode(url, token)
        report = {"health_after_s": round(ready_s, 1), "schema_without_token": refused,
                  "episode_s": round(time.monotonic() - started, 2), **played}
        print(json.dumps(report))
        if played["reward"] != 1.0:
            raise SystemExit(f"the oracle's click was paid {played['reward']}, not 1.0")
    finally:
        subprocess.run(["docker", "stop", "-t", "10", container], capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
