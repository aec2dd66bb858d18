"""The options several commands share: their value types, the groups of them that commands
add, and the values the commands derive from them. Heavy modules are imported where an
option group is added or a value derived, so that `finestate --help` stays quick."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.core.errors import UsageError

PLATFORMS = ("web", "mobile", "desktop")
LAYOUTS = ("finestate-env", "finestate", "screenspot")  # instance files: generate, export


# -- value types (argparse reports a bad value as its own usage error, exit 2) -----------
def split(value: str | None) -> list[str] | None:
    """A comma-separated list of names; empty: None (all)."""
    return [v for v in value.split(",") if v] if value else None


def floats(value: str) -> list[float]:
    try:
        return [float(v) for v in value.split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a comma-separated list of "
                                         "numbers") from None


def image_size(value: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not WIDTHxHEIGHT") from None
    if width < 1 or height < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: width and height must be positive")
    return width, height


def whole_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: must be at least 1")
    return number


def temperature(value: str) -> float | None:
    return None if value.lower() == "none" else float(value)


# -- option groups --------------------------------------------------------------------
def add_live_env_options(parser: argparse.ArgumentParser) -> None:
    """Which env and which controls: --platform or --env, --component, --viewport, --scene."""
    parser.add_argument("--platform", choices=PLATFORMS, default="web",
                        help="which FineState env: FineState-Web-v0, -Mobile-v0 or -Desktop-v0")
    parser.add_argument("--env", default=None, help="a Gymnasium id (overrides --platform)")
    parser.add_argument("--component", type=split, default=None,
                        help="comma-separated component types (default: all)")
    parser.add_argument("--viewport", default=None,
                        help="WIDTHxHEIGHT (default: the env's own, 1280x720 on web)")
    add_scene_option(parser)


def add_scene_option(parser: argparse.ArgumentParser,
                     page: str = "the control in an app page among live distractors") -> None:
    from finestate_env.components.scenes import DEFAULT_SCENE, SCENES

    parser.add_argument("--scene", choices=SCENES, default=DEFAULT_SCENE,
                        help=f"page (default): {page}; control: the control alone, on an "
                             "empty stage (for ablations)")


def add_trusted_paths_option(parser: argparse.ArgumentParser) -> None:
    """`--trusted-paths`: image paths in the data may lead out of its folder (core/files.py)."""
    parser.add_argument("--trusted-paths", action="store_true",
                        help="trust the data's image paths: read images outside its folder "
                             "(absolute paths, .., links out), which are refused by default")


def add_static_input_options(parser: argparse.ArgumentParser) -> None:
    """How `import` and `score` read released records (inputs.read_static)."""
    parser.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed lines (reported and counted) instead of stopping")
    parser.add_argument("--platform", choices=PLATFORMS, default=None,
                        help="platform of imported records (default: from each record)")
    parser.add_argument("--images", default=None,
                        help="folder that imported image paths are relative to "
                             "(default: the file's folder)")
    parser.add_argument("--image-size", type=image_size, default=None,
                        help="WIDTHxHEIGHT of imported records whose image cannot be read")
    add_trusted_paths_option(parser)


def add_ray_options(parser: argparse.ArgumentParser) -> None:
    """`--ray [ADDRESS]` and what each actor asks of the cluster (runs.ray_jobs)."""
    from finestate_env.runs.ray_jobs import ACTOR_CPUS, ACTOR_MEMORY_MIB, BATCH_SIZE

    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="run on Ray actors, one per worker (--workers; default: as many "
                             "as the cluster's CPUs hold): alone, a Ray instance started on "
                             "this machine; with an address, an existing cluster (auto, "
                             "HOST:PORT)")
    parser.add_argument("--actor-cpus", type=float, default=ACTOR_CPUS,
                        help=f"with --ray: CPUs each actor reserves (default {ACTOR_CPUS:g})")
    parser.add_argument("--actor-memory", type=int, default=ACTOR_MEMORY_MIB, metavar="MIB",
                        help="with --ray: memory each actor reserves, MiB (default "
                             f"{ACTOR_MEMORY_MIB}: a browser's measured footprint)")
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE,
                        help=f"with --ray: items per batch sent to an actor (default "
                             f"{BATCH_SIZE})")


def add_server_options(parser: argparse.ArgumentParser, token_env: str) -> None:
    """What both servers (serve, serve-env) take beside their own: the token's variable, the
    log level, and the Ray Serve options."""
    parser.add_argument("--token-env", default=token_env,
                        help=f"environment variable holding the bearer token (default "
                             f"{token_env}); unset: no token asked")
    parser.add_argument("--log-level", default="warning",
                        choices=("critical", "error", "warning", "info", "debug"))
    add_ray_serve_options(parser)


def add_ray_serve_options(parser: argparse.ArgumentParser) -> None:
    """`--ray ADDRESS` for the servers (serve, serve-env): Ray Serve replicas on a running
    cluster (agentic/ray_serve.py); --host and --port are then its proxy's."""
    group = parser.add_argument_group("on a Ray cluster (Ray Serve; docs/cluster.md)")
    group.add_argument("--ray", default=None, metavar="ADDRESS",
                       help="serve from Ray Serve replicas on the running cluster at ADDRESS "
                            "(HOST:PORT, auto), each with browsers of its own, through "
                            "Serve's proxy on --host/--port; runs until interrupted, then "
                            "removes them")
    group.add_argument("--min-replicas", type=whole_number, default=1,
                       help="with --ray: replicas kept running (default 1)")
    group.add_argument("--max-replicas", type=whole_number, default=4,
                       help="with --ray: replicas the load may scale to (default 4)")
    group.add_argument("--replica-cpus", type=float, default=1.0,
                       help="with --ray: CPUs each replica reserves; its default workers or "
                            "sessions follow from it (default 1)")
    group.add_argument("--replicas-per-node", type=whole_number, default=1,
                       help="with --ray: replicas a node may hold (default 1)")
    group.add_argument("--route-prefix", default="/",
                       help="with --ray: the path the server answers under on the proxy "
                            "(default /; two servers on one cluster need two)")
    group.add_argument("--proxies", choices=("head", "every-node"), default="head",
                       help="with --ray, when this command starts Serve: one proxy on the "
                            "head node, or one on every node (behind a load balancer)")
    group.add_argument("--replace", action="store_true",
                       help="with --ray: take over an application of this server left "
                            "running on the cluster (by a command that was killed)")


def ray_serve_options(args: argparse.Namespace):
    """The deployment add_ray_serve_options describes (agentic.ray_serve.RayServeOptions),
    or None without --ray."""
    if args.ray is None:
        given = [flag for flag, default in (
            ("--min-replicas", 1), ("--max-replicas", 4), ("--replica-cpus", 1.0),
            ("--replicas-per-node", 1), ("--route-prefix", "/"), ("--proxies", "head"),
            ("--replace", False)) if getattr(args, flag[2:].replace("-", "_")) != default]
        if given:
            raise UsageError(f"{', '.join(given)}: for Ray Serve replicas, given without "
                             "--ray")
        return None
    if not args.replica_cpus > 0:
        raise UsageError(f"--replica-cpus must be above 0, got {args.replica_cpus:g}")
    from finestate_env.core.extras import require

    require("ray.serve", "ray", "--ray for the servers (Ray Serve)")
    from finestate_env.agentic.ray_serve import RayServeOptions

    return RayServeOptions(address=args.ray, host=args.host, port=args.port,
                           min_replicas=args.min_replicas, max_replicas=args.max_replicas,
                           replicas_per_node=args.replicas_per_node,
                           route_prefix=args.route_prefix, proxies=args.proxies,
                           replace=args.replace, log_level=args.log_level)


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """Options of the OpenAI-compatible VLM agent (shared by `run` and `eval`)."""
    from finestate_env.agents.vda import VDA_MODES, VDA_PARTS

    parser.add_argument("--model", default=None, help="model name at the endpoint")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint, e.g. "
                        "http://localhost:8000/v1 (vLLM) or http://localhost:11434/v1 (Ollama)")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY",
                        help="environment variable holding the API key (never printed)")
    parser.add_argument("--coords", choices=("pixel", "normalized", "1000"), default=None,
                        help="the model's coordinate convention (default: its profile's)")
    parser.add_argument("--vda", choices=VDA_MODES, default="none",
                        help="Visual Diagnostic Assistant hint: none, oracle (from the "
                             "instance's boxes) or model (a detector asked first)")
    parser.add_argument("--vda-parts", choices=VDA_PARTS, default="both")
    parser.add_argument("--vda-model", default=None, help="detector for --vda model "
                                                          "(default: --model)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="with a VDA, skip the no-hint pass (no Δ_vis)")
    parser.add_argument("--cache-dir", default=None, help="response cache (default: OUT/cache)")
    parser.add_argument("--max-retries", type=int, default=6,
                        help="retries on 429, 5xx, timeouts (the openai client's backoff)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    parser.add_argument("--temperature", type=temperature, default=0.0,
                        help="sampling temperature, or 'none' not to send one")
    parser.add_argument("--max-tokens", type=int, default=512, help="0: not sent")


# -- values the commands derive from the options ---------------------------------------
def env_id(args: argparse.Namespace) -> str:
    return getattr(args, "env", None) or f"FineState-{args.platform.capitalize()}-v0"


def env_options(args: argparse.Namespace) -> dict:
    """The env's keyword arguments that add_live_env_options gives (--viewport, --scene)."""
    options = {} if args.viewport is None else {"viewport": args.viewport}
    if getattr(args, "scene", None) is not None:
        options["scene"] = args.scene
    return options


def ray_spec(args: argparse.Namespace):
    """The Ray run add_ray_options describes (runs.ray_jobs.RaySpec), or None without --ray."""
    from finestate_env.runs.ray_jobs import ACTOR_CPUS, ACTOR_MEMORY_MIB, BATCH_SIZE, RaySpec

    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.ray is None:
        given = [flag for flag, value, default in (
            ("--actor-cpus", args.actor_cpus, ACTOR_CPUS),
            ("--actor-memory", args.actor_memory, ACTOR_MEMORY_MIB),
            ("--batch-size", args.batch_size, BATCH_SIZE)) if value != default]
        if given:
            raise UsageError(f"{', '.join(given)}: for Ray actors, given without --ray")
        return None
    return RaySpec(address=args.ray, actors=args.workers, cpus_per_actor=args.actor_cpus,
                   memory_mib_per_actor=args.actor_memory, batch_size=args.batch_size)


def agent_options(args: argparse.Namespace, frame: str) -> dict:
    """`build_agents`'s options, as add_model_options gives them."""
    if not args.model:
        raise UsageError("--agent openai needs --model")
    cache_dir = args.cache_dir or (Path(args.out) / "cache" if args.out else None)
    return dict(model=args.model, vda=args.vda, vda_parts=args.vda_parts,
                vda_model=args.vda_model, baseline=not args.no_baseline,
                coords=args.coords, frame=frame, base_url=args.base_url,
                api_key_env=args.api_key_env,
                cache_dir=None if cache_dir is None else Path(cache_dir).resolve(),
                max_retries=args.max_retries, timeout=args.timeout,
                temperature=args.temperature, max_tokens=args.max_tokens or None)


def vlm_agents(args: argparse.Namespace, frame: str):
    """The VLM agent the options describe and, with a VDA, its no-hint baseline."""
    from finestate_env.agents.vlm_agent import build_agents

    return build_agents(**agent_options(args, frame))
