"""Compare two directories of golden logs game by game (the behaviour check of an engine change).

    .venv/bin/python tests/golden/record.py --seeds 200 --out /tmp/before    # in a checkout of the old commit
    .venv/bin/python tests/golden/record.py --seeds 200 --out /tmp/after     # in the new one
    .venv/bin/python tests/golden/compare.py /tmp/before /tmp/after

or, in one command between two git revisions, tests/golden/between.py main HEAD.

A game is identical when every recorded decision, option digest, strategy rule, announcement, result and
firing count and digest is. Exit status 1 if any game differs or is missing.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path


def games(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    total = same = 0
    for path in sorted(args.before.glob("*.jsonl.gz")):
        before, after = games(path), games(args.after / path.name)
        differing = [old["seed"] for old, new in zip(before, after) if old != new]
        total += len(before)
        same += min(len(before), len(after)) - len(differing)
        print(f"{path.name}: {len(before)} recorded, {len(after)} now, {len(differing)} differ"
              + (f" (seeds {differing[:5]})" if differing else ""))
    print(f"{same} of {total} games identical")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
