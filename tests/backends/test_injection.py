"""No instance can run script in a page or change a read-back (#48): an attack corpus.

For every type, an app page instance has every string it holds (params, states, the
page's blocks and distractors, the instructions) replaced by a markup or script payload
that would set a sentinel; a string whose field does not take free text (a colour, a date,
an enumeration) is refused by the domain check naming it, and is left as it was. What is
left is shown through `reset(options={"instance": ...})` on the real backend: nothing of
it runs (the sentinel is never set, the page's CSP saw nothing to block, no page had to be
replaced), and the oracle's gesture reaches the goal, as on the clean instance. The
crafted instance of the issue (markup in a block's rect) is refused at every entry
(tests/datasets/test_instance_checks.py, tests/rewards/test_server_hostile.py), and a
script put into a page by hand is blocked by the CSP and costs that page
(test_a_page_changed_by_script_is_replaced_before_the_next_instance)."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components.domain import InvalidLive, check_instance
from finestate_env.core.schema import Instance

# Short, so that a text replaced by one takes about its room (a control that outgrows its
# slot is refused by the page: stage.js, seat): each sets the sentinel wherever it runs.
PAYLOADS = ("<svg/onload=__pwn=1>", "<img src onerror=__pwn=1>", "</style><script>__pwn=1",
            "javascript:__pwn=1", "${__pwn=1}")
SENTINEL = "typeof window.__pwn"


def strings_in(value, found: set[str]) -> None:
    """Every string leaf of a JSON value (dict keys are structure, not text)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)


def replaced(value, mapping: dict[str, str]):
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {k: replaced(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [replaced(v, mapping) for v in value]
    return value


def poisoned(instance: Instance, blocks_only: bool = False) -> tuple[Instance, int, list[str]]:
    """`instance` with each string a payload can go into replaced by one (`blocks_only`:
    the strings of the page's drawn blocks); (it, how many strings carry a payload, the
    fields that refused one)."""
    data = json.loads(instance.model_dump_json())
    texts: set[str] = set()
    parts = ([data["live"]["scene"]["blocks"]] if blocks_only else
             [data["live"]["params"], data["live"]["current_state"],
              data["live"]["goal_state"], data["live"].get("scene"), data["instructions"]])
    for part in parts:
        strings_in(part, texts)
    mapping = {text: f"{PAYLOADS[i % len(PAYLOADS)]}{i}" for i, text in enumerate(sorted(texts))}
    refused: list[str] = []
    while True:
        candidate = {**data, "live": replaced(data["live"], mapping),
                     "instructions": replaced(data["instructions"], mapping),
                     "current_state": replaced(data["current_state"], mapping),
                     "goal_state": replaced(data["goal_state"], mapping)}
        try:
            variant = Instance.model_validate(candidate)
            check_instance(variant)
            return variant, len(mapping), refused
        except InvalidLive as exc:
            refused.append(exc.field)
            # The strings at the refused field take no free text (a colour, a date, an
            # option a state names): leave them as they were.
            at: set[str] = set()
            strings_in(value_at(candidate, exc.field), at)
            undone = {text for text, payload in mapping.items() if payload in at}
            if not undone:
                raise
            for text in undone:
                del mapping[text]


def value_at(data, field: str):
    """The value a field path names ("instance.live.params.labels[0]")."""
    value = data
    for part in field.replace("]", "").replace("[", ".").split(".")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value




# (env id, make options, only the drawn blocks poisoned). A phone's controls are sized to a
# 360 px screen: one whose texts all grow to a payload's length outgrows its page slot, so
# there they are poisoned alone on the stage, and the phone's page blocks apart.
SETUPS = {"web page": ("FineState-Web-v0", {}, False),
          "phone control": ("FineState-Mobile-v0", {"scene": "control"}, False),
          "phone page blocks": ("FineState-Mobile-v0", {}, True)}


@pytest.fixture(scope="module", params=list(SETUPS))
def setup(request):
    env_id, options, blocks_only = SETUPS[request.param]
    env = gym.make(env_id, **options).unwrapped
    yield env, blocks_only
    env.close()


def test_payloads_in_every_text_are_shown_as_text_and_judged_alike(setup, component):
    env, blocks_only = setup
    _, info = env.reset(seed=7, options={"component": component})
    clean = env.instance
    _, clean_reward, *_ = env.step(OracleAgent().act(None, info))
    variant, carried, refused = poisoned(clean, blocks_only)
    assert carried > 0, refused
    _, info = env.reset(options={"instance": variant})
    _, reward, _, _, after = env.step(OracleAgent().act(None, info))
    page = env.backend._cdp
    assert page.evaluate(SENTINEL) == "undefined", "a payload ran"
    assert page.evaluate("FineState.violations()") == []
    assert env.backend.tampered_pages == 0
    assert (reward, after["success"]) == (clean_reward, clean_reward == 1.0) == (1.0, True)


def test_a_page_changed_by_script_is_replaced_before_the_next_instance():
    """Script that got into a page by hand (DevTools, as a payload that slipped through
    would): markup handlers and script elements are blocked by the CSP and reported; a
    global set by script makes the next render refuse the page, and the next instance is
    shown on a fresh one, judged as on an untouched page."""
    env = gym.make("FineState-Web-v0").unwrapped
    try:
        _, info = env.reset(seed=3)
        _, expected, *_ = env.step(OracleAgent().act(None, info))
        page = env.backend._cdp
        page.evaluate("""(() => {
            const d = document.createElement('div');
            d.innerHTML = '<img src=x onerror="window.__pwn=1">';
            const s = document.createElement('script');
            s.textContent = 'window.__pwn = 1';
            document.body.append(d, s);
        })()""")
        page.evaluate("new Promise(r => setTimeout(r, 200))")
        assert page.evaluate(SENTINEL) == "undefined"
        assert sorted(page.evaluate("FineState.violations()")) == [
            "script-src-attr blocked inline", "script-src-elem blocked inline"]
        _, info = env.reset(seed=3)
        assert env.backend.tampered_pages == 1
        _, reward, *_ = env.step(OracleAgent().act(None, info))
        assert reward == expected == 1.0
        env.backend._cdp.evaluate("window.__pwn = 1")  # as if a script had run
        _, info = env.reset(seed=3)
        assert env.backend.tampered_pages == 2
        assert env.backend._cdp.evaluate(SENTINEL) == "undefined"
        assert env.step(OracleAgent().act(None, info))[1] == 1.0
    finally:
        env.close()
