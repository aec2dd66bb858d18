"""verifiers 0.4's own eval playing live finestate sessions through FineStateEnv, against a
scripted OpenAI-compatible model on loopback.

    python examples/verifiers_agentic_smoke.py --smoke    # what make test runs (CPU, ~40 s)

The tasks are ground truths of live instances (two sliders), written as `finestate
export-rl` writes its rows (`reward_model.ground_truth`, Parquet) and read by the taskset
with 3 gestures a session. verifiers runs them as a user would: `vf-eval`'s entry point
(verifiers.v1.cli.eval.main, in this process) with the taskset id `finestate-verifiers`,
2 rollouts a task, its loader importing the installed package
examples/agentic/finestate_verifiers, its eval runner, episodes, `null` chat harness
(a subprocess per turn, through verifiers' interception server) and EvalClient, which
relays every model call to the scripted server here.

The server plays a model by script, per rollout (verifiers' X-Session-ID header) and task
(the first screenshot's hash): of the first task's two rollouts one misses (a click on
no control), then makes the right gesture, then says done (reward exactly 1.0); the other
drags the slider near the goal but not onto it, misses, says done (exactly 0.0). On the
second task the browser "crashes" under the first gesture (BackendCrashed injected in
that env, whose recovery is made to fail too: a crash that cannot be undone cannot be
produced on demand): the session is unjudged and the rollout must fail, not score 0.0.
The server records the images of every request; the summary (one JSON line, last) has
them beside the traces verifiers wrote (traces.jsonl, read with verifiers' own reader).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TASKSET_ID = "finestate-verifiers"
SEEDS = {"judged": 3, "crash": 5}  # slider instances drawn by the env
MAX_ACTIONS = 3
ROLLOUTS = 2
MISS = [4, 4]  # a click in the page's corner, on no control (0-1000 grid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", required=True,
                        help="the only mode: tasks, the scripted model, vf-eval, a JSON line")
    parser.parse_args()
    print(json.dumps(smoke()))


def smoke() -> dict:
    started = time.monotonic()
    # verifiers' null harness runs its chat program with uv (`uv sync --script`): the
    # venv's own uv, found on PATH as a user's would be.
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    from finestate_env.agentic import verifiers as adapter

    # The pool the env's rollouts use: the process's shared pool for the env config's
    # default settings (vf-eval is run with them).
    fields = adapter.FineStateEnvConfig.model_fields
    pool = adapter.shared_pool(fields["max_sessions"].default, fields["idle_timeout_s"].default)
    tasks = live_tasks(pool)
    work = Path(tempfile.mkdtemp(prefix="finestate-verifiers-smoke-"))
    path = write_rows(work / "tasks.parquet", tasks)
    crash_ids = {task["id"] for task in tasks if task["kind"] == "crash"}
    arm_crashes(pool, crash_ids)
    server = ScriptedModel(tasks)
    with server.serving() as base_url:
        run_dir = run_vf_eval(path, base_url, work / "outputs")
    episodes = read_traces(run_dir)
    return {
        "verifiers": _version("verifiers"),
        "package": _package(),
        "taskset": taskset_reading(work, tasks[0]["truth"]),
        "tasks": [{k: v for k, v in task.items() if k != "truth"} for task in tasks],
        "episodes": episodes,
        "server": server.report(),
        "seconds": round(time.monotonic() - started, 1),
    }


# -- the tasks ----------------------------------------------------------------------------

def live_tasks(pool) -> list[dict]:
    """Two slider instances drawn by the env, as exported rows' ground truths (0-1000 grid),
    with each one's first screen (rendered here by a session of the adapter's pool, whose
    env the rollouts then reuse) and the gestures of the scripts."""
    from finestate_env.core.coords import box_center
    from finestate_env.rewards import ground_truth
    from finestate_env.sessions import SessionTask

    tasks = []
    for kind, seed in SEEDS.items():
        with pool.open(SessionTask(seed=seed, component="slider", max_actions=MAX_ACTIONS)) as s:
            truth = ground_truth(s.instance, "1000")
            png, (w, h) = s.observe().png, s.size
        boxes = truth.instance.boxes.current

        def grid(point, w=w, h=h):
            return [round(point[0] * 1000 / w, 1), round(point[1] * 1000 / h, 1)]

        p0, p1 = grid(box_center(boxes.now)), grid(box_center(boxes.goal))
        near = [p1[0] - 90 if p1[0] > 300 else p1[0] + 90, p1[1]]
        tasks.append({"kind": kind, "id": truth.instance.id, "truth": truth.text(),
                      "screen_sha256": hashlib.sha256(png).hexdigest(),
                      "right": [p0, p1], "near_miss": [p0, near]})
    return tasks


def write_rows(path: Path, tasks: list[dict]) -> Path:
    """The tasks as `finestate export-rl` rows (the columns the taskset reads)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"data_source": "finestate/web",
             "reward_model": {"style": "rule", "ground_truth": task["truth"]},
             "extra_info": {"index": i, "id": task["id"], "component": "slider"}}
            for i, task in enumerate(tasks)]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def taskset_reading(work: Path, truth: str) -> dict:
    """The taskset's other sources, loaded as verifiers loads an env (no rendering): a JSONL
    file of a session task, a bare ground truth and an export-rl multi-turn row (its `task`
    column); seeds; a file with a line that is no task."""
    import verifiers.v1 as vf

    from finestate_env.sessions import SessionTask

    def tasks_of(**taskset) -> list[dict]:
        config = vf.resolve_env_config({"taskset": {"id": TASKSET_ID, **taskset}})
        env = vf.load_environment(config)
        return [{"type": type(task).__name__, "id": task.data.id, "name": task.data.name,
                 "prompt": task.data.prompt, "session_task": json.loads(task.data.session_task)}
                for task in env.taskset]

    lines = [SessionTask.read(truth).model_copy(update={"max_actions": 2}).text(), truth,
             json.dumps({"task": SessionTask.read(truth).model_copy(
                 update={"max_actions": 3}).text(), "extra_info": {"id": "row-3"}}), ""]
    path = work / "tasks.jsonl"
    path.write_text("\n".join(lines) + "\n")
    bad = work / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps({"seed": "three"}) + "\n")
    try:
        tasks_of(path=str(bad))
        refused = None
    except Exception as exc:  # noqa: BLE001 - reported, checked by the test
        refused = f"{type(exc).__name__}: {exc}"
    return {"jsonl": tasks_of(path=str(path), max_actions=4),
            "seeds": tasks_of(seeds=[1, 2], component="switch", coords="1000"),
            "bad_line": refused}


def arm_crashes(pool, instance_ids: set[str]) -> None:
    """Sessions of these instances crash under their first gesture and cannot be restored
    (BackendCrashed from the env's act and its episode restore); their env is sound again
    once the session closes, for the next session the pool gives it to."""
    from finestate_env.backends.base import BackendCrashed
    from finestate_env.sessions import SessionTask

    def crashed(*args, **kwargs):
        raise BackendCrashed("the smoke's injected crash: the browser died under the gesture")

    open_session = pool.open

    def open_(task):
        session = open_session(task)
        truth = SessionTask.read(task).ground_truth
        if truth is not None and truth.instance.id in instance_ids:
            env, close = session._env, session.close
            env._act = env._restore_episode = crashed

            def close_(why: str = "closed") -> None:
                for name in ("_act", "_restore_episode"):
                    env.__dict__.pop(name, None)
                close(why)

            session.close = close_
        return session

    pool.open = open_


# -- the scripted model --------------------------------------------------------------------

class ScriptedModel:
    """An OpenAI-compatible chat-completions server (stdlib, 127.0.0.1) that answers each
    rollout from a script: the first request of a rollout takes the next script of its task
    (known by the first screenshot), the later ones the next reply of it."""

    def __init__(self, tasks: list[dict]) -> None:
        def gesture(points):
            return json.dumps({"p0": points[0], "p1": points[1]})

        self.scripts: dict[str, list[tuple[str, list[str]]]] = {}
        for task in tasks:
            miss = gesture([MISS, MISS])
            if task["kind"] == "judged":
                scripts = [("right", [miss, gesture(task["right"]), "done"]),
                           ("never", [gesture(task["near_miss"]), miss, "done"])]
            else:
                scripts = [("crash", [gesture(task["right"])])] * ROLLOUTS
            self.scripts[task["screen_sha256"]] = list(scripts)
        self.sessions: dict[str, dict] = {}
        self.unexpected: list[str] = []
        self._lock = threading.Lock()

    def reply(self, session_id: str, body: dict) -> str:
        images = [base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                  for message in body["messages"] if message.get("role") == "user"
                  and isinstance(message.get("content"), list)
                  for part in message["content"] if part.get("type") == "image_url"]
        shas = [hashlib.sha256(image).hexdigest() for image in images]
        texts = [part["text"] for message in body["messages"] if message.get("role") == "user"
                 and isinstance(message.get("content"), list)
                 for part in message["content"] if part.get("type") == "text"]
        with self._lock:
            session = self.sessions.get(session_id)
            if session is None:
                task = shas[0] if shas else None
                queue = self.scripts.get(task) or []
                if not queue:
                    self.unexpected.append(f"{session_id}: no script left for image {task}")
                    return "done"
                name, replies = queue.pop(0)
                session = self.sessions[session_id] = {
                    "task_screen": task, "script": name, "replies": replies, "requests": []}
            turn = len(session["requests"])
            session["requests"].append({"images": len(images), "image_sha256": shas,
                                        "last_text": texts[-1] if texts else None})
            if turn >= len(session["replies"]):
                self.unexpected.append(f"{session_id}: request {turn + 1} past its script")
                return "done"
            return session["replies"][turn]

    def report(self) -> dict:
        with self._lock:
            return {"sessions": self.sessions, "unexpected": self.unexpected}

    @contextlib.contextmanager
    def serving(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                self._send(200, "application/json", json.dumps(
                    {"object": "list", "data": [{"id": "scripted", "object": "model"}]}).encode())

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if not self.path.endswith("/chat/completions"):
                    self._send(404, "application/json", b'{"error": "not found"}')
                    return
                text = model.reply(self.headers.get("X-Session-ID", ""), body)
                if body.get("stream"):
                    self._send(200, "text/event-stream", _sse(body["model"], text))
                else:
                    self._send(200, "application/json", json.dumps(
                        _completion(body["model"], text)).encode())

            def _send(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        finally:
            httpd.shutdown()
            httpd.server_close()


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _completion(model: str, text: str) -> dict:
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0,
            "model": model, "usage": USAGE,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}]}


def _sse(model: str, text: str) -> bytes:
    head = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0,
            "model": model}
    chunks = [
        {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                              "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {**head, "choices": [], "usage": USAGE},
    ]
    events = [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks] + ["data: [DONE]\n\n"]
    return "".join(events).encode()


# -- verifiers' eval ----------------------------------------------------------------------

def run_vf_eval(tasks: Path, base_url: str, output_dir: Path) -> Path:
    """`vf-eval finestate-verifiers ...` in this process (its entry point), as a user runs
    it against an OpenAI-compatible endpoint; its run folder."""
    from verifiers.v1.cli.eval.main import main as vf_eval

    argv = [TASKSET_ID, "--env.taskset.path", str(tasks),
            "--env.taskset.max-actions", str(MAX_ACTIONS),
            "--model", "scripted-vlm", "--client.base-url", base_url,
            "--num-rollouts", str(ROLLOUTS), "--no-push", "--no-rich",
            "--output-dir", str(output_dir), "--run.name", "smoke"]
    # vf-eval prints every trace (its screenshots in base64) to stdout: the summary is ours.
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        vf_eval(argv)
    return output_dir / "smoke"


def read_traces(run_dir: Path) -> list[dict]:
    """The episodes vf-eval wrote, read with verifiers' own reader."""
    import verifiers.v1 as vf
    from verifiers.v1.utils.trace_store import read_episodes

    episodes = []
    for episode in read_episodes(run_dir, vf.WireTrace):
        traces = []
        for trace in episode.traces:
            traces.append({
                "id": trace.id, "ok": trace.ok, "stop_condition": trace.stop_condition,
                "rewards": {name: None if r is None else [r.score, r.weight]
                            for name, r in trace.rewards.items()},
                "reward": trace.reward, "metrics": trace.metrics,
                "errors": [error.type for error in trace.errors],
                "error_messages": [error.message for error in trace.errors],
                "num_turns": trace.num_turns, "info": trace.info,
                "agent": trace.agent.name if trace.agent else None,
                "harness": trace.agent.config.harness.id if trace.agent else None,
            })
        episodes.append({"task": episode.task.data.id, "ok": episode.ok,
                         "errors": [error.type for error in episode.errors],
                         "traces": traces})
    return episodes


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def _package() -> dict:
    """Where verifiers' loader found the taskset package (installed, not this tree's path)."""
    import finestate_verifiers

    return {"module": finestate_verifiers.__name__, "file": finestate_verifiers.__file__,
            "distribution": _version("finestate-verifiers"),
            "exports": list(finestate_verifiers.__all__)}


if __name__ == "__main__":
    main()
