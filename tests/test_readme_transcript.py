"""The README's first transcript is what ``chimera run`` prints today: its last line (the
winner and the totals) and its first lines, for the seed it names."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_run_transcript_is_what_the_command_prints():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ chimera run (.+?)\n(.*?)\n\$ ", text, re.S)
    assert block is not None
    args, shown = block.group(1).split(), block.group(2).split("\n")
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "run", *args], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    printed = done.stdout.rstrip("\n").split("\n")
    assert shown[-1] == printed[-1]
    assert shown[:2] == printed[:2]
    rest = iter(printed)                     # every line shown is printed, in this order ("..." skips)
    for line in shown:
        if line.strip() != "...":
            assert any(line == candidate for candidate in rest), line
