#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs every line of nsys_command_lines.txt with `nsys` replaced by `gsys`, once per verb it
lists, the applications replaced by stand-ins that exit 0, and asserts gsys accepts it (exit 0
for profile and launch; start, which needs a live session, never exits 2).

usage: test_nsys_command_lines.py --gsys GSYS --fixtures DIR"""
import os
import shlex
import stat
import subprocess
import unittest

import cli_harness
from cli_harness import EXIT_USAGE, CliTestCase, Paths

LINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nsys_command_lines.txt")

# The applications of the lines: each exits 0; the launchers run what follows their options
# (mpirun and srun as rank 0), so an `nsys profile` behind them is what is tested.
STAND_INS = {
    "python": "exit 0",
    "python3": "exit 0",
    "torchrun": "exit 0",
    "mpirun": 'while [ "$1" = -np ] || [ "$1" = -n ]; do shift 2; done\n'
              'OMPI_COMM_WORLD_RANK=0 exec "$@"',
    "srun": 'SLURM_PROCID=0 exec "$@"',
}


def read_lines():
    out = []
    with open(LINES) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            verbs, command = line.split("|", 1)
            out.append((n, verbs.split(), command.strip()))
    return out


class NsysCommandLinesTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        for name, body in STAND_INS.items():
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(path, stat.S_IRWXU)
        self.sessions = os.path.join(self.tmp, "sessions")
        os.makedirs(self.sessions)

    def run_line(self, verb, command, cwd):
        argv = shlex.split(command)
        at = argv.index("nsys")
        argv[at] = Paths.gsys
        argv[at + 1] = verb
        env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"],
                   GSYS_SESSIONS_DIR=self.sessions)
        for k in ("RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"):
            env.pop(k, None)
        return subprocess.run(argv, capture_output=True, text=True, timeout=180, cwd=cwd, env=env)

    def test_every_line_is_accepted_by_every_verb_it_names(self):
        lines = read_lines()
        self.assertGreater(len(lines), 20)
        for n, verbs, command in lines:
            for verb in verbs:
                with self.subTest(line=n, verb=verb):
                    cwd = os.path.join(self.tmp, "l%d_%s" % (n, verb))
                    os.makedirs(cwd)
                    p = self.run_line(verb, command, cwd)
                    self.assertNotIn("unknown option", p.stderr)
                    self.assertNotEqual(p.returncode, EXIT_USAGE, p.stderr)
                    if verb != "start":
                        self.assertEqual(p.returncode, 0, "line %d (%s): %s" % (n, verb, p.stderr))


if __name__ == "__main__":
    cli_harness.main()
