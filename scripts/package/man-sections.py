#!/usr/bin/env python3
"""Adds to pajama.1 (made by argument-parser's generate-manual) what a man page reader expects and
argument-parser's page lacks: COMMANDS (each subcommand and its abstract, from the binary's
--experimental-dump-help, the same definitions the pages come from); KEYS, FILES and ENVIRONMENT from
README.md's tables (the one hand-written source, so the page and the README never disagree); and EXIT STATUS
from a tab-separated file, replacing generate-manual's generic one. They go before SEE ALSO, in the order mdoc
expects. The `help` command's page is left out of SEE ALSO (generate-docs.sh does not install it).

usage: man-sections.py README.md EXIT-STATUS-FILE DUMP-HELP.json PAGE.1   (PAGE.1 is rewritten)"""
import json
import re
import sys

readme, exit_file, dump_file, page = sys.argv[1:5]


def table(markdown, heading):
    """The rows (lists of cells) of the first table under `## heading`, header row left out."""
    match = re.search(r"^## " + re.escape(heading) + r"\n(.*?)(?=^## |\Z)", markdown, re.S | re.M)
    if not match:
        sys.exit(f"man-sections: README.md has no '## {heading}' section")
    rows = [line for line in match.group(1).splitlines() if line.startswith("|")]
    if len(rows) < 3:
        sys.exit(f"man-sections: README.md's '## {heading}' has no table")
    cells = []
    for line in rows[2:]:
        parts = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        cells.append([p.strip().replace("\\|", "|") for p in parts])
    return cells


SYMBOLS = {"→": "Right", "←": "Left", "↑": "Up", "↓": "Down", "—": "\\(em", "·": "\\(pc", "…": "...", "⚠": "(!)"}


def roff(text):
    """Markdown cell text as mdoc text: links to their words, code to plain, escapes for roff."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = text.replace("\\", "\\e")
    text = text.replace("`", "")
    for symbol, word in SYMBOLS.items():
        text = text.replace(symbol, word)
    return text


def tag(text):
    return '"' + roff(text).replace('"', "\\(dq") + '"'


def body(text):
    text = roff(text)
    return "\\&" + text if text.startswith((".", "'")) else text


markdown = open(readme, encoding="utf-8").read()
command = json.load(open(dump_file, encoding="utf-8"))["command"]
out = [".Sh COMMANDS", ".Bl -tag -width Ds"]
for sub in command.get("subcommands", []):
    name = sub["commandName"]
    if name == "help" or not sub.get("shouldDisplay", True):
        continue
    default = " The default command: pajama alone runs it." if command.get("defaultSubcommand") == name else ""
    out += [".It " + tag(name), body(sub.get("abstract", "") + default + " See") , ".Xr pajama." + name + " 1 ."]
out += [".El"]

out += [".Sh KEYS", "In the reader:", ".Bl -tag -width Ds"]
for key, does in table(markdown, "Keys"):
    out += [".It " + tag(key), body(does)]
out += [".El"]

out += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
for variable, meaning in table(markdown, "Environment"):
    out += [".It " + tag(variable), body(meaning)]
out += [".El"]

out += [".Sh FILES", "What pajama reads and writes (nothing is written in a story's folder):", ".Bl -tag -width Ds"]
for what, where in table(markdown, "Where files go"):
    out += [".It " + tag(where), body(what)]
out += [
    ".It \"PREFIX/share/pajama/Stories, PREFIX/share/pajama/Themes\"",
    "the stories and themes installed with pajama (PREFIX: the folder above the one holding the pajama binary, /usr for the Debian package)",
    ".El",
]

out += [".Sh EXIT STATUS", ".Bl -tag -width Ds"]
for line in open(exit_file, encoding="utf-8").read().splitlines():
    if line.strip():
        status, meaning = line.split("\t", 1)
        out += [".It " + tag(status), body(meaning)]
out += [".El"]

lines = open(page, encoding="utf-8").read().splitlines()
# generate-manual's own EXIT STATUS (".Ex -std") gives way to ours; the help page's reference goes.
start = next((i for i, l in enumerate(lines) if l.startswith(".Sh") and "EXIT STATUS" in l), None)
if start is not None:
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(".Sh")), len(lines))
    del lines[start:end]
lines = [l for l in lines if not l.startswith(".Xr pajama.help ")]
position = next((i for i, l in enumerate(lines) if l.startswith(".Sh") and "SEE ALSO" in l), None)
if position is None:
    position = next((i for i, l in enumerate(lines) if l.startswith(".Sh") and "AUTHORS" in l), len(lines))
lines[position:position] = out
open(page, "w", encoding="utf-8").write("\n".join(lines) + "\n")
