"""The `finestate` command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from finestate_env import __version__


def _run(args: argparse.Namespace) -> int:
    import gymnasium as gym
    import numpy as np

    from finestate_env.agents.episodes import run_episodes
    from finestate_env.agents.scripted import make_agent
    from finestate_env.cli.tables import format_disagreements, format_summary
    from finestate_env.core.metrics import summarize
    from finestate_env.replay.disagreements import disagreement_of, explain

    if args.vda != "none" and args.agent != "openai":
        raise ValueError(f"--vda {args.vda} hints a VLM: it needs --agent openai")
    if args.report and not args.out:
        raise ValueError("--report writes OUT/report.html: it needs --out OUT")
    env = gym.make(_env_id(args), component=args.component, family=args.family,
                   timings=True, max_actions=args.max_actions,
                   **_env_options(args)).unwrapped  # results.jsonl keeps the timings
    baseline = baseline_results = None
    # The episodes worth a look (disagreements, action errors): their instance, and their
    # screenshot when they are written out for the report.
    cases: list[tuple[Any, Any, Any]] = []

    def keep(result, observation, reset_info) -> None:
        if result.crosscheck != "agree" or result.action_error is not None or result.collateral:
            shot = np.asarray(observation["screenshot"]) if args.out else None
            cases.append((result, _instance_of(reset_info), shot))

    try:
        if args.agent == "openai":
            agent, baseline = _vlm_agents(args, env.coord_mode)
        else:
            agent = make_agent(args.agent, env, seed=args.seed, sigma_p0=args.sigma_p0,
                               sigma_p1=args.sigma_p1)
        started = time.perf_counter()
        results = run_episodes(env, agent, args.episodes, seed=args.seed, on_result=keep)
        elapsed = time.perf_counter() - started
        if baseline is not None:  # the same seeds without the hint, for Δ_vis
            baseline_results = run_episodes(env, baseline, args.episodes, seed=args.seed)
    except _model_failure() as exc:
        print(f"finestate: {exc}\nfinestate: the responses so far are cached; rerun the same "
              "command to resume", file=sys.stderr)
        return 1
    finally:
        env.close()
    summary = summarize(results)
    if baseline_results is not None:
        from finestate_env.agents.vlm_eval import live_vda_summary

        summary["vda"] = live_vda_summary(args.vda, args.vda_parts, results, baseline_results)
    noise = (f" (σ p0 {args.sigma_p0:g} px, σ p1 {args.sigma_p1:g} px)"
             if args.agent == "noisy-oracle" else "")
    print(f"{_env_id(args)} · agent {args.agent}{noise} · {args.episodes} episodes from seed "
          f"{args.seed} · {args.episodes / elapsed:.1f} episodes/s")
    explained = explain(d for result, instance, _ in cases
                        if (d := disagreement_of(result, instance)) is not None)
    print(format_summary(summary, crosscheck_by_type=not explained))
    if "episodes" in summary:
        episodes = summary["episodes"]
        print(f"episodes of up to {args.max_actions} gestures (the four metrics above are "
              f"each episode's first): episode success {episodes['episode_success']:.3f}, "
              f"gestures median {episodes['gestures_median']:g} (the oracle's "
              f"{episodes['oracle_gestures_median']:g}), mean "
              f"{episodes['gestures_mean']:.2f}; {episodes['collateral']} episodes changed "
              "another control")
    if explained:
        print()
        print(format_disagreements(explained))
    if "vda" in summary:
        vda = summary["vda"]
        print(f"VDA {args.vda} ({args.vda_parts}): ES-SR@Int live {vda['with']['live']:.3f} "
              f"vs {vda['without']['live']:.3f} without, "
              f"Δ_vis live {vda['delta_vis']['live']:+.3f}, "
              f"static {vda['delta_vis']['static']:+.3f}")
    if args.agent == "openai" and args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        usage = {"model": args.model, **agent.chat.usage.as_json()}
        if baseline is not None:
            usage["baseline"] = baseline.chat.usage.as_json()
            (Path(args.out) / "baseline").mkdir(exist_ok=True)
            (Path(args.out) / "baseline" / "results.jsonl").write_text(
                "".join(r.model_dump_json() + "\n" for r in baseline_results))
        (Path(args.out) / "usage.json").write_text(json.dumps(usage, indent=2) + "\n")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "results.jsonl", "w") as f:
            for result in results:
                f.write(result.model_dump_json() + "\n")
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        _write_cases(out, cases, args)
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
        if args.report:
            from finestate_env.replay.report import write_report

            print(f"wrote {write_report(out)}")
    return 0


def _instance_of(reset_info: dict):
    from finestate_env.core.schema import Instance

    return Instance.model_validate_json(reset_info["instance"])  # JSON text (design.md §4b)


def _write_cases(out: Path, cases: list, args: argparse.Namespace) -> None:
    """OUT/cases/instances.jsonl and its screenshots: the episodes the report shows a card
    for, named in OUT/run.json as `replay` names its instances."""
    import shutil

    from PIL import Image

    from finestate_env.datasets.formats import write_instances
    from finestate_env.replay.report import MANIFEST

    folder = out / "cases"
    if folder.exists():
        shutil.rmtree(folder)  # ours: the cases of an earlier run in the same folder
    (folder / "images").mkdir(parents=True)
    instances = []
    for _, instance, shot in cases:
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in instance.id) + ".png"
        Image.fromarray(shot).save(folder / "images" / name)
        instances.append(instance.model_copy(update={"image": f"images/{name}"}))
    write_instances(instances, folder / "instances.jsonl")
    (out / MANIFEST).write_text(json.dumps({
        "instances": str((folder / "instances.jsonl").resolve()), "agent": args.agent,
        "episodes": args.episodes, "seed": args.seed}, indent=2) + "\n")


def _gallery(args: argparse.Namespace) -> int:
    from finestate_env.replay.gallery import make_gallery, make_page_gallery

    if args.scene == "page":
        out = make_page_gallery(args.out, seed=args.seed, platform=args.platform,
                                component=args.component)
    else:
        out = make_gallery(args.out, args.component, seed=args.seed, platform=args.platform)
    print(f"wrote {out}")
    return 0


def _curve(args: argparse.Namespace) -> int:
    from finestate_env.replay.curve import precision_curve, write_curve

    def progress(name: str, row: dict) -> None:
        rates = " ".join(f"{rate:.2f}" for rate in row["live"])
        print(f"  {name:<16} live success {rates}", flush=True)

    print(f"noise on {args.noise_on}, sigmas {args.sigmas} px, {args.episodes_per_type} "
          f"episodes per type and sigma from seed {args.seed}", flush=True)
    curve = precision_curve(args.sigmas, args.component, args.episodes_per_type, seed=args.seed,
                            noise_on=args.noise_on, env_id=_env_id(args), **_env_options(args),
                            on_type=progress)
    json_path, png_path = write_curve(curve, args.out)
    print(f"wrote {json_path} and {png_path} in {curve['elapsed_s']:.0f} s")
    return 0


def _floats(value: str) -> list[float]:
    try:
        return [float(v) for v in value.split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a comma-separated list of "
                                         "numbers") from None


def _replay(args: argparse.Namespace) -> int:
    from finestate_env.cli.tables import format_summary
    from finestate_env.datasets.formats import read_instances, read_predictions
    from finestate_env.replay.live_replay import pair_predictions, replay
    from finestate_env.replay.report import MANIFEST, write_report

    instances = read_instances(args.instances, skip_invalid=args.skip_invalid)
    predictions = read_predictions(args.predictions, skip_invalid=args.skip_invalid)
    _say_skipped(args.instances, instances.skipped)
    _say_skipped(args.predictions, predictions.skipped)
    _say_unknown_types(args.instances, instances.unknown_types)
    _check_pixel_sizes(instances.items, predictions, args.predictions)
    jobs, unknown = pair_predictions(instances.items, predictions.items)
    if unknown:
        print(f"finestate: {len(unknown)} predictions name no instance of {args.instances} "
              f"(first: {unknown[0]!r}); they are left out", file=sys.stderr)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).write_text(json.dumps({
        "instances": str(Path(args.instances).resolve()),
        "predictions": str(Path(args.predictions).resolve())}, indent=2) + "\n")
    started = time.perf_counter()
    try:
        records, summary = replay(jobs, out, workers=args.workers or 1, progress=not args.quiet,
                                  ray=_ray_spec(args))
    except KeyboardInterrupt:
        print(f"\ninterrupted: results so far are in {out / 'results.jsonl'}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    elapsed = time.perf_counter() - started
    print(format_summary(summary))
    outcomes = ", ".join(f"{k} {v}" for k, v in summary["outcomes"].items() if v)
    print(f"{len(records)} predictions ({outcomes}) · this run {elapsed:.1f} s")
    print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    if args.report:
        print(f"wrote {write_report(out)}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import read_instances
    from finestate_env.replay.audit import DENSITY
    from finestate_env.replay.dataset_audit import audit_file

    instances = read_instances(args.instances, skip_invalid=args.skip_invalid)
    _say_skipped(args.instances, instances.skipped)
    out = Path(args.out)
    density = DENSITY if args.density is None else args.density
    try:
        records, summary = audit_file(instances.items, out, density=density,
                                      workers=args.workers or 1, progress=not args.quiet,
                                      ray=_ray_spec(args))
    except KeyboardInterrupt:
        print(f"\ninterrupted: audits so far are in {out / 'audit.jsonl'}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    status = summary["status"]
    print(f"{summary['instances']} instances: {status['sound']} sound, {status['unsound']} "
          f"unsound, {status['not_replayable']} not replayable, {status['error']} errors "
          f"({summary['probes']} probes)")
    print(f"{'type':<16}{'n':>5}{'unsound':>9}{'sound min':>11}{'tight med':>11}{'IoU med':>9}")
    for name, stats in summary["by_component"].items():
        fmt = lambda d, k: f"{d[k]:.3f}" if d else "n/a"  # noqa: E731
        print(f"{name:<16}{sum(stats['status'].values()):>5}{stats['status']['unsound']:>9}"
              f"{fmt(stats['soundness'], 'min'):>11}{fmt(stats['tightness'], 'median'):>11}"
              f"{fmt(stats['iou'], 'median'):>9}")
    for bad in summary["unsound"]:
        print(f"  unsound: {bad['id']} ({bad['component']}, soundness {bad['soundness']:.3f}) "
              f"-> {out / bad['picture']}")
    print(f"wrote {out / 'audit.jsonl'} and {out / 'audit_summary.json'}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from finestate_env.replay.report import write_report

    folder = Path(args.folder)
    if not (folder / "results.jsonl").exists():
        raise ValueError(f"{folder} has no results.jsonl: run `finestate replay --out {folder}` "
                         "first")
    print(f"wrote {write_report(folder)}")
    return 0


def _add_ray_options(parser: argparse.ArgumentParser) -> None:
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


def _ray_spec(args: argparse.Namespace):
    from finestate_env.runs.ray_jobs import ACTOR_CPUS, ACTOR_MEMORY_MIB, BATCH_SIZE, RaySpec

    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    if args.ray is None:
        given = [flag for flag, value, default in (
            ("--actor-cpus", args.actor_cpus, ACTOR_CPUS),
            ("--actor-memory", args.actor_memory, ACTOR_MEMORY_MIB),
            ("--batch-size", args.batch_size, BATCH_SIZE)) if value != default]
        if given:
            raise ValueError(f"{', '.join(given)}: for Ray actors, given without --ray")
        return None
    return RaySpec(address=args.ray, actors=args.workers, cpus_per_actor=args.actor_cpus,
                   memory_mib_per_actor=args.actor_memory, batch_size=args.batch_size)


def _say_skipped(path: str, skipped: list[str]) -> None:
    if skipped:
        print(f"finestate: skipped {len(skipped)} invalid lines of {path} "
              f"(first: {skipped[0]})", file=sys.stderr)


def _model_failure() -> type[Exception]:
    from finestate_env.agents.vlm_client import ModelRequestFailed

    return ModelRequestFailed


def _vlm_agents(args: argparse.Namespace, frame: str):
    """The VLM agent the options describe and, with a VDA, its no-hint baseline."""
    from finestate_env.agents.vlm_agent import build_agents

    return build_agents(**_agent_options(args, frame))


def _agent_options(args: argparse.Namespace, frame: str) -> dict:
    """`build_agents`'s options, as the command line gives them."""
    if not args.model:
        raise ValueError("--agent openai needs --model")
    cache_dir = args.cache_dir or (Path(args.out) / "cache" if args.out else None)
    return dict(model=args.model, vda=args.vda, vda_parts=args.vda_parts,
                vda_model=args.vda_model, baseline=not args.no_baseline,
                coords=args.coords, frame=frame, base_url=args.base_url,
                api_key_env=args.api_key_env,
                cache_dir=None if cache_dir is None else Path(cache_dir).resolve(),
                max_retries=args.max_retries, timeout=args.timeout,
                temperature=args.temperature, max_tokens=args.max_tokens or None)


def _eval(args: argparse.Namespace) -> int:
    from finestate_env.agents.vlm_eval import AgentRecipe, Arm, evaluate
    from finestate_env.datasets.formats import read_instances

    ray = _ray_spec(args)
    if ray is None and args.workers not in (None, 1):
        raise ValueError(f"--workers {args.workers}: eval asks one question at a time here; "
                         "more workers are Ray actors (--ray)")
    if args.rate_limit is not None and ray is None:
        raise ValueError("--rate-limit: for Ray actors, given without --ray")
    if args.rate_limit is not None and not args.rate_limit > 0:
        raise ValueError(f"--rate-limit must be positive requests/s, got {args.rate_limit}")
    out = Path(args.out)
    read = read_instances(args.instances)
    instances = read.items
    if not instances:
        raise ValueError(f"{args.instances}: no instances")
    if args.cache_dir is None:
        args.cache_dir = str(out / "cache")
    agent, baseline = _vlm_agents(args, "pixel")
    options = _agent_options(args, "pixel")
    arms = [Arm(f"vda-{args.vda}" if args.vda != "none" else "no-vda", agent, out,
                AgentRecipe(options))]
    if baseline is not None:
        arms.append(Arm("baseline", baseline, out / "baseline", AgentRecipe(options, True)))

    def progress(arm: str, index: int, prediction) -> None:
        if (index + 1) % 25 == 0 or index + 1 == len(instances):
            print(f"  {arm}: {index + 1}/{len(instances)} answered", flush=True)

    print(f"{args.model} on {len(instances)} instances from {args.instances} · VDA {args.vda}"
          f" · coords {agent.profile.coords} ({agent.profile.why})", flush=True)
    try:
        summary = evaluate(arms, instances, Path(args.instances).parent, progress, ray=ray,
                           rate_limit=args.rate_limit)
    except _model_failure() as exc:
        print(f"finestate: {exc}\nfinestate: the predictions so far are in {out}; the responses "
              "are cached, so rerunning the same command resumes for free", file=sys.stderr)
        return 1
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    for name, arm in summary["arms"].items():
        usage, static = arm["usage"], arm["static"]
        scores = f"static ES-SR@Int {static['es_sr_int']:.3f}, SR@Loc {static['sr_loc']:.3f}"
        print(f"{name}: {scores} · unparsed {arm['unparsed']} · requests {usage['requests']}, "
              f"cached {usage['cached']}, retries {usage['retries']}, "
              f"tokens {usage['tokens']['total_tokens']}")
    if "delta_vis" in summary:
        print(f"Δ_vis static (ES-SR@Int with hints - without): "
              f"{summary['delta_vis']['static']:+.3f}")
    print(f"wrote {out / 'predictions.jsonl'}, {out / 'usage.json'} and {out / 'summary.json'}")
    return 0


def _temperature(value: str) -> float | None:
    return None if value.lower() == "none" else float(value)


def _add_model_options(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--temperature", type=_temperature, default=0.0,
                        help="sampling temperature, or 'none' not to send one")
    parser.add_argument("--max-tokens", type=int, default=512, help="0: not sent")


def _image_size(value: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not WIDTHxHEIGHT") from None
    if width < 1 or height < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: width and height must be positive")
    return width, height


def _whole_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: must be at least 1")
    return number


def _generate(args: argparse.Namespace) -> int:
    from finestate_env.datasets.generate import timed_generate

    ray = _ray_spec(args)
    if ray is None and args.workers not in (None, 1):
        raise ValueError(f"--workers {args.workers}: generate runs in one browser here; "
                         "more workers are Ray actors (--ray)")
    path, speed = timed_generate(args.out, platform=args.platform, n=args.n, seed=args.seed,
                                 component=args.component, family=args.family, fmt=args.format,
                                 viewport=args.viewport, scene=args.scene, ray=ray)
    out = Path(args.out)
    extra = f" and {path.name}" if path.name != "instances.jsonl" else ""
    print(f"wrote {args.n} {args.platform} instances to {out / 'instances.jsonl'}{extra} "
          f"with screenshots in {out / 'images'} · {speed:.2f} instances/s")
    return 0


def _read_static(args: argparse.Namespace, path: str):
    from finestate_env.datasets.formats import read_instances

    read = read_instances(path, skip_invalid=args.skip_invalid, platform=args.platform,
                          images=args.images, image_size=args.image_size)
    _say_skipped(path, read.skipped)
    _say_unknown_types(path, read.unknown_types)
    return read


def _say_unknown_types(path: str, unknown: dict[str, int]) -> None:
    if unknown:
        names = ", ".join(f"{json.dumps(name)} {count}" for name, count in
                          sorted(unknown.items(), key=lambda item: (-item[1], item[0])))
        print(f"finestate: {sum(unknown.values())} records of {path} name a component type "
              f"that is none of the 23 ({names}); each is kept as its own group",
              file=sys.stderr)


def _check_pixel_sizes(instances, predictions, path: str) -> None:
    """A pixel prediction for an instance without an image size is the one thing that needs
    a size: stop at the first such prediction, naming its line (docs/design.md §5)."""
    from finestate_env.core.static_scoring import needs_size
    from finestate_env.datasets.formats import FormatError

    by_id = {instance.id: instance for instance in instances}
    for prediction, line in zip(predictions.items, predictions.lines, strict=True):
        instance = by_id.get(prediction.id)
        if instance is not None and needs_size(instance, prediction):
            raise FormatError(path, line, "coords", '"normalized" or "1000", or the image '
                              f"size of instance {json.dumps(instance.id)}, whose boxes are "
                              "normalised and whose image was not found (pass --images DIR "
                              'or --image-size WxH to compare pixels with them)', '"pixel"')


def _import(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import relocate_images, write_instances

    try:
        read = _read_static(args, args.file)
    except OSError as exc:
        raise ValueError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    out = Path(args.out)
    instances = relocate_images(read.items, Path(args.file).parent, out, args.images)
    written = write_instances(instances, out / "instances.jsonl")
    print(f"{args.file}: layout {read.layout or 'none (empty file)'}, read {len(read.items)} "
          f"instances, skipped {len(read.skipped)} invalid lines")
    sizeless = sum(instance.size is None for instance in instances)
    if sizeless:
        print(f"{sizeless} instances have no image size (no image found, no width/height): "
              "they score against normalized and 1000 predictions; pixel predictions need "
              "--images DIR or --image-size WxH")
    print(f"wrote {written} (static: no live block, so score them, do not replay them)")
    return 0


def _export(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import export, read_instances

    try:
        read = read_instances(args.instances, skip_invalid=args.skip_invalid)
    except OSError as exc:
        raise ValueError(f"cannot read {args.instances}: {exc.strerror or exc}") from None
    _say_skipped(args.instances, read.skipped)
    export(read.items, args.out, args.format)
    print(f"wrote {len(read.items)} instances to {args.out} ({args.format})")
    return 0


def _score(args: argparse.Namespace) -> int:
    from finestate_env.cli.tables import format_metric_table
    from finestate_env.core.static_scoring import score
    from finestate_env.datasets.formats import read_predictions

    try:
        read = _read_static(args, args.instances)
        predictions = read_predictions(args.predictions, skip_invalid=args.skip_invalid)
    except OSError as exc:
        raise ValueError(f"cannot read {exc.filename}: {exc.strerror or exc}") from None
    _say_skipped(args.predictions, predictions.skipped)
    if not read.items:
        raise ValueError(f"{args.instances} holds no instances")
    _check_pixel_sizes(read.items, predictions, args.predictions)
    records, summary = score(read.items, predictions.items, args.mode)
    counts = summary["counts"]
    summary["counts"]["skipped_lines"] = {"instances": len(read.skipped),
                                          "predictions": len(predictions.skipped)}
    print(f"{args.instances} ({read.layout}) · {len(predictions.items)} predictions · "
          f"mode {args.mode}")
    print(format_metric_table(summary))
    print(f"no prediction {counts['no_prediction']}, wrong format {counts['wrong_format']}, "
          f"missing point {counts['missing_point']}")
    for key, what in (("unknown_ids", "name no instance"), ("duplicate_ids", "repeat an id")):
        if counts[key]:
            print(f"{len(counts[key])} prediction ids {what} (ignored; first: "
                  f"{counts[key][0]!r})", file=sys.stderr)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "results.jsonl", "w", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record.to_json()) + "\n")
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    return 0


def _add_live_env_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--platform", choices=("web", "mobile", "desktop"), default="web",
                        help="which FineState env: FineState-Web-v0, -Mobile-v0 or -Desktop-v0")
    parser.add_argument("--env", default=None, help="a Gymnasium id (overrides --platform)")
    parser.add_argument("--component", type=_split, default=None,
                        help="comma-separated component types (default: all)")
    parser.add_argument("--viewport", default=None,
                        help="WIDTHxHEIGHT (default: the env's own, 1280x720 on web)")
    _add_scene_option(parser)


def _add_scene_option(parser: argparse.ArgumentParser,
                      page: str = "the control in an app page among live distractors") -> None:
    from finestate_env.components.scenes import DEFAULT_SCENE, SCENES

    parser.add_argument("--scene", choices=SCENES, default=DEFAULT_SCENE,
                        help=f"page (default): {page}; control: the control alone, on an "
                             "empty stage (for ablations)")


def _env_id(args: argparse.Namespace) -> str:
    return args.env or f"FineState-{args.platform.capitalize()}-v0"


def _env_options(args: argparse.Namespace) -> dict:
    options = {} if args.viewport is None else {"viewport": args.viewport}
    if getattr(args, "scene", None) is not None:
        options["scene"] = args.scene
    return options


def _add_static_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed lines (reported and counted) instead of stopping")
    parser.add_argument("--platform", choices=("web", "mobile", "desktop"), default=None,
                        help="platform of imported records (default: from each record)")
    parser.add_argument("--images", default=None,
                        help="folder that imported image paths are relative to "
                             "(default: the file's folder)")
    parser.add_argument("--image-size", type=_image_size, default=None,
                        help="WIDTHxHEIGHT of imported records whose image cannot be read")


def _split(value: str | None) -> list[str] | None:
    return [v for v in value.split(",") if v] if value else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="finestate", description=(
        "FineState-Bench made live: real controls, real input, exact goal states."))
    parser.add_argument("--version", action="version", version=f"finestate-env {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run an agent live and print the metrics, "
                                          "static (boxes) beside live (read-back)")
    from finestate_env.agents.scripted import AGENTS

    run.add_argument("--agent", choices=(*AGENTS, "openai"), default="oracle")
    run.add_argument("--sigma-p0", type=float, default=0.0,
                     help="noisy-oracle: Gaussian noise on p0, pixels")
    run.add_argument("--sigma-p1", type=float, default=0.0,
                     help="noisy-oracle: Gaussian noise on p1, pixels")
    _add_model_options(run)
    run.add_argument("--episodes", type=int, default=50)
    run.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    run.add_argument("--max-actions", type=int, default=1, metavar="K",
                     help="gestures per episode (default 1, the FineState protocol); with "
                          "K > 1 the agent acts again on each new screenshot until the goal "
                          "is reached or K gestures are used")
    _add_live_env_options(run)
    run.add_argument("--family", type=_split, default=None,
                     help="comma-separated families (default: all)")
    run.add_argument("--out", default=None, help="folder for results.jsonl, summary.json and "
                                                 "cases/ (the disagreements' instances)")
    run.add_argument("--report", action="store_true", help="also write OUT/report.html")
    run.set_defaults(handler=_run)

    gallery = commands.add_parser("gallery", help="every type in every theme, boxes drawn on, "
                                                  "as one PNG")
    gallery.add_argument("--out", default="gallery.png")
    gallery.add_argument("--component", type=_split, default=None)
    gallery.add_argument("--seed", type=int, default=3)
    gallery.add_argument("--platform", choices=("web", "mobile", "desktop"), default="web")
    _add_scene_option(gallery, "page: one whole page per template instead")
    gallery.set_defaults(handler=_gallery)

    evaluate = commands.add_parser("eval", help="ask a VLM (OpenAI-compatible endpoint) for "
                                                "the points of every instance of a file")
    evaluate.add_argument("--agent", choices=("openai",), default="openai")
    evaluate.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    evaluate.add_argument("--out", required=True, help="folder for predictions.jsonl, "
                                                       "usage.json, summary.json, cache/")
    _add_model_options(evaluate)
    evaluate.add_argument("--workers", type=int, default=None,
                          help="with --ray: Ray actors asking at once (without --ray, one "
                               "question at a time)")
    _add_ray_options(evaluate)
    evaluate.add_argument("--rate-limit", type=float, default=None, metavar="PER_SECOND",
                          help="with --ray: at most this many requests a second to each "
                               "endpoint, across all actors")
    evaluate.set_defaults(handler=_eval)

    curve = commands.add_parser("curve", help="live success against Gaussian pixel noise on "
                                              "the oracle's points, per type (JSON + PNG)")
    curve.add_argument("--sigmas", type=_floats, default=[0, 1, 2, 4, 8, 16],
                       help="comma-separated noise levels in pixels, increasing")
    curve.add_argument("--episodes-per-type", type=int, default=10,
                       help="episodes per type and sigma (the same seeds at every sigma)")
    curve.add_argument("--noise-on", choices=("p1", "p0"), default="p1")
    curve.add_argument("--seed", type=int, default=0)
    _add_live_env_options(curve)
    curve.add_argument("--out", required=True, help="folder for curve.json and curve.png")
    curve.set_defaults(handler=_curve)

    replay = commands.add_parser("replay", help="perform predictions live on rebuilt "
                                                "instances: static verdicts beside live ones")
    replay.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    replay.add_argument("--predictions", required=True, help="predictions file (JSON Lines)")
    replay.add_argument("--out", required=True,
                        help="folder for results.jsonl and summary.json; an existing one is "
                             "continued where it stopped")
    replay.add_argument("--workers", type=int, default=None,
                        help="processes, each with its own browser (default 1); with --ray, "
                             "Ray actors")
    _add_ray_options(replay)
    replay.add_argument("--report", action="store_true", help="also write report.html")
    replay.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed lines (counted) instead of stopping")
    replay.add_argument("--quiet", action="store_true", help="no progress bar")
    replay.set_defaults(handler=_replay)

    audit = commands.add_parser("audit", help="prove or disprove every instance's boxes by "
                                              "probing the live control")
    audit.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    audit.add_argument("--out", required=True,
                       help="folder for audit.jsonl, audit_summary.json and pictures of "
                            "unsound boxes; an existing one is continued")
    audit.add_argument("--density", type=_whole_number, default=None,
                       help="probes per side inside the goal box, 3x that over core "
                            "(default: replay.audit.DENSITY, 5)")
    audit.add_argument("--workers", type=int, default=None,
                       help="processes, each with its own browser (default 1); with --ray, "
                            "Ray actors")
    _add_ray_options(audit)
    audit.add_argument("--skip-invalid", action="store_true")
    audit.add_argument("--quiet", action="store_true", help="no progress bar")
    audit.set_defaults(handler=_audit)

    report = commands.add_parser("report", help="write FOLDER/report.html from a replay "
                                                "(and audit) folder")
    report.add_argument("folder")
    report.set_defaults(handler=_report)

    generate = commands.add_parser("generate", help="render N instances live and write "
                                                     "instances.jsonl and images/")
    generate.add_argument("--platform", choices=("web", "mobile", "desktop"), default="web")
    generate.add_argument("--n", type=int, required=True)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--out", required=True, help="folder to write")
    generate.add_argument("--component", type=_split, default=None,
                          help="comma-separated component types (default: all)")
    generate.add_argument("--family", type=_split, default=None,
                          help="comma-separated families (default: all, paper shares)")
    generate.add_argument("--format", choices=("finestate-env", "finestate", "screenspot"),
                          default="finestate-env",
                          help="also write the instances in this layout beside instances.jsonl")
    generate.add_argument("--viewport", default=None, help="WIDTHxHEIGHT (default: the env's)")
    _add_scene_option(generate)
    generate.add_argument("--workers", type=int, default=None,
                          help="with --ray: Ray actors, each with its own browser (without "
                               "--ray, generate uses one); the files are the same either way")
    _add_ray_options(generate)
    generate.set_defaults(handler=_generate)

    importer = commands.add_parser("import", help="read released FineState-Bench or ScreenSpot "
                                                  "records into DIR/instances.jsonl")
    importer.add_argument("file")
    importer.add_argument("--out", required=True, help="folder for instances.jsonl")
    _add_static_input_options(importer)
    importer.set_defaults(handler=_import)

    exporter = commands.add_parser("export", help="write instances in another layout")
    exporter.add_argument("instances")
    exporter.add_argument("--format", choices=("finestate-env", "finestate", "screenspot"),
                          required=True)
    exporter.add_argument("--out", required=True, help="file to write")
    exporter.add_argument("--skip-invalid", action="store_true")
    exporter.set_defaults(handler=_export)

    scorer = commands.add_parser("score", help="score predictions against instances' boxes "
                                               "(static, no browser)")
    scorer.add_argument("--instances", required=True,
                        help="project, FineState-Bench (web or desktop) or ScreenSpot layout")
    scorer.add_argument("--predictions", required=True)
    scorer.add_argument("--mode", choices=("stagewise", "release"), default="stagewise")
    scorer.add_argument("--out", default=None, help="folder for results.jsonl and summary.json")
    _add_static_input_options(scorer)
    scorer.set_defaults(handler=_score)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "episodes", 1) < 1:
        print("finestate: --episodes must be at least 1", file=sys.stderr)
        return 2
    try:
        return args.handler(args)
    except ValueError as exc:  # bad option values: say what was wrong, no traceback
        print(f"finestate: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
