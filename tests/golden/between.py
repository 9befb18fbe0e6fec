"""The behaviour check between two git revisions: the same seeded games played by each, compared game by game.

Each revision is exported (git archive, nothing in the repository changes) to a folder of its own, where its
engine is imported as `naipes` and its own tests/golden/record.py records its own rule files' games (same seeds,
same seats); compare.py then compares every decision, option digest, strategy rule, announcement, result and
firing digest. Both recordings run at once (one process each).

    .venv/bin/python tests/golden/between.py main HEAD                 # 200 seeds per shipped rule file
    .venv/bin/python tests/golden/between.py main HEAD --seeds 20 pocha wizard

Exit status 0 when every game recorded by the first revision is identical in the second.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def export(revision: str, folder: Path) -> Path:
    """`revision`'s files under folder/src, and folder/site/naipes its engine as the package names it (its
    rulesets and strategies inside, as pyproject.toml's package-dir maps them); returns the site folder."""
    source, site = folder / "src", folder / "site"
    source.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    shutil.copytree(source / "engine", site / "naipes")
    for part in ("rulesets", "strategies"):
        (site / "naipes" / part).symlink_to(source / part)
    return site


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="a git revision (main, HEAD~3, a commit)")
    parser.add_argument("after", help="another revision")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("rulesets", nargs="*", help="the rule files to play (default: all that record.py plays)")
    args = parser.parse_intermixed_args()
    with tempfile.TemporaryDirectory(prefix="naipes-between-") as tmp:
        runs = []
        for side, revision in (("before", args.before), ("after", args.after)):
            site = export(revision, Path(tmp) / side)
            command = [sys.executable, str(site.parent / "src/tests/golden/record.py"), "--seeds", str(args.seeds),
                       "--out", str(Path(tmp) / side / "golden"), *args.rulesets]
            print(f"{side}: {revision}, {args.seeds} seeds a rule file", file=sys.stderr)
            environment = {**os.environ, "PYTHONPATH": str(site)}  # (ahead of any installed naipes)
            runs.append(subprocess.Popen(command, cwd=site.parent / "src", env=environment))
        if any(run.wait() for run in runs):
            print("a recording failed", file=sys.stderr)
            return 2
        compare = ROOT / "tests/golden/compare.py"
        return subprocess.run([sys.executable, str(compare), str(Path(tmp) / "before/golden"),
                               str(Path(tmp) / "after/golden")]).returncode


if __name__ == "__main__":
    sys.exit(main())
