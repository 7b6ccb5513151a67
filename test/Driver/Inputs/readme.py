#!/usr/bin/env python3
"""Checks that what README.md says is true of the tree (test/Driver/readme.test).

usage: readme.py SRCROOT TILEC [--readme FILE] [--max-lines N]

- It fits a screen: at most --max-lines lines (60).
- Every relative link leads to a file of the tree, and its #anchor to a heading of that file (GitHub's anchors).
  The links of every docs/*.md file are checked the same way, since the README sends the reader there.
- Every inline `code` span is true of the tree: a command (`bash scripts/X.sh --flag`) names a script that exists,
  passes `bash -n` and mentions each --flag; a path exists (build/... in the build directory of TILEC, build-*/ as a
  directory a script in scripts/ names); any other span occurs word for word in a file of the tree.
- Every fenced code block is one of: commands (each line `bash ...`, checked as above); a command and its output (the
  first line `$ build/tools/tilec ARGS`: TILEC runs with ARGS in SRCROOT, must exit 0, and the lines shown must be
  in its output in order, consecutive except where a line `...` stands for lines left out); lines of a file (the
  paragraph before the block names the file in `code`; the lines must be consecutive lines of it). Any other block
  is an error, so nothing the README shows goes unchecked.

Prints one line per problem (README.md:LINE: ...) and exits 1 if there is any; else one summary line, exit 0.
"""
import argparse
import os
import re
import subprocess
import sys

SKIP_DIRS = {".git", "node_modules", "__pycache__"}


def is_build_dir(name):
    return name == "build" or name.startswith("build-") or name.startswith(".")


class Checker:
    def __init__(self, srcroot, tilec, readme):
        self.srcroot = os.path.abspath(srcroot)
        self.tilec = os.path.abspath(tilec)
        self.builddir = os.path.dirname(os.path.dirname(os.path.abspath(tilec)))
        self.readme = readme
        self.label = os.path.basename(readme)
        self.problems = []
        self.counts = {"links": 0, "paths": 0, "commands": 0, "spans": 0, "blocks": 0}
        self._corpus = None

    def problem(self, line, message):
        self.problems.append(f"{self.label}:{line}: {message}")

    # -- the tree's text, for spans that are neither commands nor paths ------------------------------------------
    def corpus(self):
        if self._corpus is None:
            texts = []
            readme_real = os.path.realpath(os.path.join(self.srcroot, "README.md"))
            for top, dirs, files in os.walk(self.srcroot):
                rel = os.path.relpath(top, self.srcroot)
                dirs[:] = [d for d in dirs
                           if d not in SKIP_DIRS and not (rel == "." and is_build_dir(d) and d != ".ci")]
                for f in files:
                    path = os.path.join(top, f)
                    if os.path.realpath(path) == readme_real:
                        continue
                    try:
                        if os.path.getsize(path) > 1 << 20:
                            continue
                        with open(path, encoding="utf-8") as fh:
                            texts.append(fh.read())
                    except (OSError, UnicodeDecodeError):
                        continue
            self._corpus = texts
        return self._corpus

    # -- links ---------------------------------------------------------------------------------------------------
    @staticmethod
    def headings(path):
        """GitHub's anchors for the headings of a Markdown file (outside code blocks)."""
        anchors, seen, fenced = set(), {}, False
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("```"):
                    fenced = not fenced
                    continue
                m = re.match(r"#{1,6} +(.*?) *#* *$", line)
                if fenced or not m:
                    continue
                slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower().replace("`", "")).replace(" ", "-")
                n = seen.get(slug, 0)
                seen[slug] = n + 1
                anchors.add(slug if n == 0 else f"{slug}-{n}")
        return anchors

    def check_link(self, base_dir, self_path, line, target, report):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto: -- not checked here (no network)
            return
        self.counts["links"] += 1
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(base_dir, path)) if path else self_path
        if not os.path.exists(full):
            report(line, f"link to {target}: no such file")
            return
        if anchor and full.endswith(".md") and anchor not in self.headings(full):
            report(line, f"link to {target}: {os.path.relpath(full, self.srcroot)} has no heading '#{anchor}'")

    def check_links_of_doc(self, path):
        rel = os.path.relpath(path, self.srcroot)
        fenced = False
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if line.startswith("```"):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):
                    self.check_link(os.path.dirname(path), path, n, target,
                                    lambda l, m, rel=rel: self.problems.append(f"{rel}:{l}: {m}"))

    # -- commands and paths --------------------------------------------------------------------------------------
    def check_command(self, line, command):
        self.counts["commands"] += 1
        words = command.split("#", 1)[0].split()
        if len(words) < 2 or words[0] != "bash":
            self.problem(line, f"command '{command}': readme.py checks only 'bash SCRIPT [--flags]'")
            return
        script = os.path.join(self.srcroot, words[1])
        if not os.path.isfile(script):
            self.problem(line, f"command '{command}': no such script {words[1]}")
            return
        syntax = subprocess.run(["bash", "-n", script], capture_output=True, text=True)
        if syntax.returncode != 0:
            self.problem(line, f"command '{command}': bash -n {words[1]} fails: {syntax.stderr.strip()}")
        with open(script, encoding="utf-8") as fh:
            text = fh.read()
        for flag in words[2:]:
            if not flag.startswith("-") or flag not in text:
                self.problem(line, f"command '{command}': {words[1]} does not handle '{flag}'")

    def is_path(self, span):
        if " " in span or span.startswith("-") or span.startswith("$"):
            return False
        return "/" in span or re.fullmatch(r"[\w+-]+(\.[\w+-]+)*\.(sh|md|tile|py|json|txt|cpp|h)", span) is not None

    def check_path(self, line, span):
        self.counts["paths"] += 1
        first = span.split("/", 1)[0]
        if first == "build":
            full = os.path.join(self.builddir, span.split("/", 1)[1] if "/" in span else "")
        elif first.startswith("build-"):
            scripts = os.path.join(self.srcroot, "scripts")
            named = any(first + "/" in open(os.path.join(scripts, f), encoding="utf-8").read()
                        for f in os.listdir(scripts) if f.endswith(".sh"))
            if not named:
                self.problem(line, f"'{span}': no script in scripts/ makes {first}/")
            return
        else:
            full = os.path.join(self.srcroot, span)
        if not os.path.exists(full.rstrip("/")):
            self.problem(line, f"'{span}': no such file or directory")
        elif span.endswith("/") and not os.path.isdir(full):
            self.problem(line, f"'{span}': not a directory")

    def check_span(self, line, span):
        if span.startswith("bash "):
            self.check_command(line, span)
        elif self.is_path(span):
            self.check_path(line, span)
        else:
            self.counts["spans"] += 1
            if not any(span in text for text in self.corpus()):
                self.problem(line, f"'{span}' occurs in no file of the tree")

    # -- code blocks ---------------------------------------------------------------------------------------------
    def check_output_block(self, line, lines):
        command = lines[0][2:].split()
        if not command or command[0] != "build/tools/tilec":
            self.problem(line, f"'{lines[0]}': readme.py runs only build/tools/tilec")
            return
        run = subprocess.run([self.tilec] + command[1:], cwd=self.srcroot, capture_output=True, text=True)
        if run.returncode != 0:
            self.problem(line, f"'{lines[0]}' exits {run.returncode}: {run.stderr.strip()[:300]}")
            return
        self.check_excerpt(line, lines[1:], run.stdout.split("\n"), f"the output of '{lines[0][2:]}'")

    def check_excerpt(self, line, shown, actual, what):
        """The lines shown are in `actual` in order; consecutive unless a line '...' stands between them."""
        pos, must_follow = 0, False
        for i, text in enumerate(shown):
            if text.strip() == "...":
                must_follow = False
                continue
            if must_follow:
                if pos < len(actual) and actual[pos] == text:
                    pos += 1
                    continue
                self.problem(line + 1 + i, f"not the next line of {what}: '{text}'")
                return
            try:
                pos = actual.index(text, pos) + 1
            except ValueError:
                self.problem(line + 1 + i, f"not in {what} (after the lines above it): '{text}'")
                return
            must_follow = True

    def check_block(self, line, lines, paragraph):
        self.counts["blocks"] += 1
        body = [l for l in lines if l.strip()]
        if body and all(l.startswith("bash ") for l in body):
            for i, l in enumerate(lines):
                if l.strip():
                    self.check_command(line + 1 + i, l)
            return
        if body and lines[0].startswith("$ "):
            self.check_output_block(line + 1, lines)
            return
        files = [s for s in re.findall(r"`([^`]+)`", paragraph)
                 if self.is_path(s) and os.path.isfile(os.path.join(self.srcroot, s))]
        if files:
            with open(os.path.join(self.srcroot, files[0]), encoding="utf-8") as fh:
                actual = fh.read().split("\n")
            start = [n for n, a in enumerate(actual) if a == lines[0]]
            if not any(actual[n:n + len(lines)] == lines for n in start):
                self.problem(line + 1, f"these {len(lines)} lines are not consecutive lines of {files[0]}")
            return
        self.problem(line, "a code block readme.py cannot check: commands ('bash ...'), '$ build/tools/tilec ...' "
                     "and its output, or lines of a file named in `code` in the paragraph before it")

    # -- the README ----------------------------------------------------------------------------------------------
    def run(self, max_lines):
        with open(self.readme, encoding="utf-8") as fh:
            text = fh.read()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > max_lines:
            self.problem(len(lines), f"{len(lines)} lines: more than a screen ({max_lines}); move detail to docs/")
        # The paragraph before a code block: the text lines since the last blank line, or the paragraph before them.
        paragraph, current, block, block_start = "", "", None, 0
        for n, l in enumerate(lines, 1):
            if block is not None:
                if l.startswith("```"):
                    self.check_block(block_start, block, current or paragraph)
                    block, paragraph, current = None, "", ""
                else:
                    block.append(l)
                continue
            if l.startswith("```"):
                block, block_start = [], n
                continue
            if l.strip():
                current += l + "\n"
            elif current:
                paragraph, current = current, ""
            for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", l)):
                self.check_link(self.srcroot, os.path.join(self.srcroot, "README.md"), n, target, self.problem)
            for span in re.findall(r"`([^`]+)`", l):
                self.check_span(n, span)
        if block is not None:
            self.problem(block_start, "a code block without its closing ```")
        docs = os.path.join(self.srcroot, "docs")
        for f in sorted(os.listdir(docs)):
            if f.endswith(".md"):
                self.check_links_of_doc(os.path.join(docs, f))
        return self.problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("srcroot")
    parser.add_argument("tilec")
    parser.add_argument("--readme", help="the README to check (default SRCROOT/README.md); its links resolve "
                                         "against SRCROOT all the same")
    parser.add_argument("--max-lines", type=int, default=60)
    args = parser.parse_args()
    checker = Checker(args.srcroot, args.tilec, args.readme or os.path.join(args.srcroot, "README.md"))
    problems = checker.run(args.max_lines)
    for p in problems:
        print(p)
    if problems:
        print(f"readme: {len(problems)} problems")
        return 1
    c = checker.counts
    print(f"readme: ok: {c['links']} links, {c['paths']} paths, {c['commands']} commands, {c['spans']} other code "
          f"spans, {c['blocks']} code blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
