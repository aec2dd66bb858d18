"""Builds build/android/finestate-views.apk from android/ and verifies it (`make android`).

Java 7 sources are compiled against the hand-written `android.*` / `org.json` stubs in
android/stubs (names and signatures only: the device binds the real classes at run time), dexed
with the `dx` inside Debian's libgradle-android-plugin-java (taken with `apt-get download` and
unpacked here, without its 123 dependencies), packed with aapt against API 29's framework-res.apk,
zipaligned and signed with the repo's debug key. The same sources give the same bytes: zip
entries are rewritten in a fixed order with a fixed time before aligning and signing.

Verified after every build: `apksigner verify`, `aapt dump badging` (package and activity) and
`dexdump` (every expected class is in classes.dex). Usage: python3 android/build.py [--out DIR]
"""

from __future__ import annotations

import argparse
import fcntl
import glob
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ANDROID = Path(__file__).resolve().parent
REPO = ANDROID.parent
PACKAGE = "org.finestate.views"
ACTIVITY = f"{PACKAGE}.MainActivity"
APK_NAME = "finestate-views.apk"
FRAMEWORK_RES = Path("/usr/share/android-framework-res/framework-res.apk")
GUAVA = Path("/usr/share/java/guava.jar")
DX_DEB = "libgradle-android-plugin-java"
DX_JAR_GLOB = "usr/share/java/com.android.tools.build.builder-[0-9]*.jar"
# A public debug key made with keytool for this repo: it signs, it proves nothing. Never use it
# for anything but this app's debug builds.
KEYSTORE = ANDROID / "debug.keystore"
KEY_ALIAS, KEY_PASSWORD = "androiddebugkey", "android"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
STEP_TIMEOUT_S = 300

# The classes dexdump must find: the activity, the receiver and every custom View.
EXPECTED_CLASSES = (
    "MainActivity", "ReportReceiver",
    "OptionRow", "TouchView", "KnobView", "ClockView", "ChartView", "ReorderView", "MapView",
    "SizeDragView", "PaneView", "ColumnsView", "ScrollRowsView",
)


class BuildError(RuntimeError):
    pass


def run(*cmd: str | Path, cwd: Path | None = None) -> str:
    """Runs a tool, bounded; its output, or a BuildError naming the command and what it said."""
    args = [str(c) for c in cmd]
    try:
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                              timeout=STEP_TIMEOUT_S)
    except FileNotFoundError as e:
        raise BuildError(f"{args[0]} is not installed (make android installs it): {e}") from e
    except subprocess.TimeoutExpired as e:
        raise BuildError(f"{' '.join(args)} took over {STEP_TIMEOUT_S} s") from e
    if done.returncode != 0:
        raise BuildError(f"{' '.join(args)} failed ({done.returncode}):\n"
                         f"{done.stdout}{done.stderr}")
    return done.stdout


def dx_jar(tools: Path) -> Path:
    """The dx jar, unpacked from the Debian package into `tools` once (apt-get download only).
    A lock file keeps parallel builds (test workers) from unpacking it at the same time."""
    tools.mkdir(parents=True, exist_ok=True)
    with open(tools / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        jars = sorted(tools.glob(DX_JAR_GLOB))
        if jars:
            return jars[-1]
        for old in tools.glob(f"{DX_DEB}_*.deb"):
            old.unlink()
        try:
            run("apt-get", "download", DX_DEB, cwd=tools)
        except BuildError:
            # A fresh machine may have the packages but no package lists: fetch them, retry once.
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            run(*sudo, "apt-get", "update", "-qq")
            run("apt-get", "download", DX_DEB, cwd=tools)
        (deb,) = tools.glob(f"{DX_DEB}_*.deb")
        run("dpkg-deb", "-x", deb, tools)
        jars = sorted(tools.glob(DX_JAR_GLOB))
        if not jars:
            raise BuildError(f"{deb.name} has no {DX_JAR_GLOB}")
        return jars[-1]


def javac_path() -> str:
    """A javac that can still target Java 7 (JDK 19 at most): `javac` on the path, else a JDK 17
    or 11 beside it (Debian keeps each in /usr/lib/jvm)."""
    candidates = [shutil.which("javac") or "javac",
                  *sorted(glob.glob("/usr/lib/jvm/java-1[17]-openjdk-*/bin/javac"), reverse=True)]
    for candidate in candidates:
        try:
            version = subprocess.run([candidate, "-version"], capture_output=True, text=True,
                                     timeout=60).stdout
        except (FileNotFoundError, subprocess.TimeoutExpired):
            continue
        major = re.search(r"javac (\d+)", version)
        if major and int(major.group(1)) < 20:
            return candidate
    raise BuildError("no javac that targets Java 7 (JDK 19 or older; dx 1.x reads nothing "
                     "newer): install openjdk-17-jdk-headless")


def javac(sources: Path, out: Path, classpath: Path | None = None) -> None:
    files = sorted(str(f) for f in sources.rglob("*.java"))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    # Java 7: dx 1.x rejects newer class files. -implicit:none keeps stubs out of the app's classes.
    cmd = [javac_path(), "--release", "7", "-encoding", "UTF-8", "-nowarn", "-Xlint:-options",
           "-implicit:none", "-d", out]
    if classpath is not None:
        cmd += ["-classpath", classpath]
    run(*cmd, *files)


def repack(resources: Path, dex: Path, out: Path) -> None:
    """aapt's package plus classes.dex, in a fixed order with fixed times: the same bytes again."""
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(resources) as z:
        for name in z.namelist():
            entries[name] = z.read(name)
    entries["classes.dex"] = dex.read_bytes()
    first = ["AndroidManifest.xml", "classes.dex", "resources.arsc"]
    order = [n for n in first if n in entries] + sorted(n for n in entries if n not in first)
    with zipfile.ZipFile(out, "w") as z:
        for name in order:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            # resources.arsc stays stored: Android maps it from the APK (required from API 30).
            info.compress_type = zipfile.ZIP_STORED if name == "resources.arsc" \
                else zipfile.ZIP_DEFLATED
            z.writestr(info, entries[name], compresslevel=9)


def verify(apk: Path) -> dict[str, object]:
    """apksigner, aapt badging and dexdump checks; raises BuildError on the first that fails."""
    signer = run("apksigner", "verify", "--verbose", apk)
    if "Verified using v2 scheme (APK Signature Scheme v2): true" not in signer:
        raise BuildError(f"apksigner verify: no v2 signature:\n{signer}")
    badging = run("aapt", "dump", "badging", apk)
    if f"package: name='{PACKAGE}'" not in badging:
        raise BuildError(f"aapt badging names no package {PACKAGE}:\n{badging}")
    dexdump = run("dexdump", apk)
    found = set(re.findall(r"Class descriptor\s*:\s*'L([^;]+);'", dexdump))
    expected = {f"{PACKAGE.replace('.', '/')}/{name}" for name in EXPECTED_CLASSES}
    missing = sorted(expected - found)
    if missing:
        raise BuildError(f"dexdump: classes.dex lacks {missing}")
    if any(name.startswith(("android/", "org/json/")) for name in found):
        raise BuildError("dexdump: a stub class went into classes.dex")
    activity = run("aapt", "dump", "xmltree", apk, "AndroidManifest.xml")
    if ".MainActivity" not in activity and ACTIVITY not in activity:
        raise BuildError("the manifest declares no MainActivity")
    return {"classes": sorted(found), "badging": badging}


def build(out_dir: Path, tools: Path = REPO / "build" / "android" / "tools") -> Path:
    """Builds and verifies the APK in `out_dir`; `tools` keeps the unpacked dx between builds."""
    started = time.monotonic()
    for needed in (FRAMEWORK_RES, GUAVA, KEYSTORE):
        if not needed.exists():
            raise BuildError(f"{needed} is missing (make android installs what the build needs)")
    work = out_dir / "work"
    work.mkdir(parents=True, exist_ok=True)
    jar = dx_jar(tools)
    javac(ANDROID / "stubs", work / "stubs")
    javac(ANDROID / "src", work / "classes", classpath=work / "stubs")
    dex = work / "classes.dex"
    run("java", "-cp", f"{jar}:{GUAVA}", "com.android.dx.command.Main", "--dex",
        f"--output={dex}", work / "classes")
    resources = work / "resources.ap_"
    run("aapt", "package", "-f", "-M", ANDROID / "AndroidManifest.xml", "-S", ANDROID / "res",
        "-I", FRAMEWORK_RES, "-F", resources)
    unaligned, aligned = work / "unaligned.apk", work / "aligned.apk"
    repack(resources, dex, unaligned)
    run("zipalign", "-p", "-f", "4", unaligned, aligned)
    apk = out_dir / APK_NAME
    run("apksigner", "sign", "--ks", KEYSTORE, "--ks-key-alias", KEY_ALIAS,
        "--ks-pass", f"pass:{KEY_PASSWORD}", "--key-pass", f"pass:{KEY_PASSWORD}",
        "--out", apk, aligned)
    Path(f"{apk}.idsig").unlink(missing_ok=True)  # v4 signature file: adb install does not need it
    verify(apk)
    print(f"{apk.relative_to(REPO) if apk.is_relative_to(REPO) else apk}: "
          f"{apk.stat().st_size} bytes, built and verified in {time.monotonic() - started:.1f} s")
    return apk


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "android",
                        help="output directory (default: build/android)")
    args = parser.parse_args()
    try:
        build(args.out.resolve())
    except BuildError as e:
        print(f"android build: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
