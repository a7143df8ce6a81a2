#!/usr/bin/env python3
"""Differential test of Pajama's ChoiceScript interpreter against ChoiceScript's own randomtest (docs/choicescript.md).

For each game and seed, runs `node randomtest.js num=1 game=G seed=S showText=true showChoices=true` in a copy of
the given ChoiceScript checkout (the game's scenes linked in as web/G/scenes), reads the option it took at each
choice (the starred one), and plays the same options with `pajama play`; then compares the text of the two
readings paragraph by paragraph. A path is identical when every paragraph matches and both end alike (an ending,
or an error at the same scene and line; a *goto_scene to a scene with no file, which randomtest reports as the file it
could not read, by the scene's name). Prints one line a path and the agreement; writes nothing else.

The checkout is fetched by whoever runs this (ChoiceScript's licence forbids copying it into this repository);
this script fetches nothing.

usage: choicescript-randomtest.py CHOICESCRIPT_CHECKOUT PAJAMA GAME_DIR... [--seeds N] [--verbose]
       (GAME_DIR: a folder holding scenes/; a corpus folder's games: ../shared/corpora/choicescript/*/)

Normalised on both sides before comparing: runs of spaces, ChoiceScript's [b] [i] markup (Pajama draws it),
the page-turn and picture lines each prints its
own way, the notices Pajama adds, and the achievements an ending's last page lists. Pajama's *rand draws randomtest's numbers (the same generator and seed,
docs/choicescript.md), and `pajama play --test-answers` types randomtest's answers at *input_text and *input_number; a differing path where randomtest drew a *rand is still counted apart.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHOICE = "\0choice"


def segments(paragraphs):
    """The text between two choices, as one run of words: a page turn or a line break is drawn differently
    by each (randomtest ends a paragraph at *input_text, where ChoiceScript itself turns the page)."""
    result, words = [], []
    for paragraph in paragraphs + [CHOICE]:
        if paragraph == CHOICE:
            result.append(" ".join(words))
            words = []
        else:
            words.append(paragraph)
    return result


def norm(text):
    text = re.sub(r"\[/?[bi]\]|\[url=[^\]]*\]|\[/url\]|\[c/\]", "", text)
    text = text.replace("\u200b", "")
    return re.sub(r"\s+", " ", text).strip()


def option_text(scenes, scene, line):
    """The words of the option on `line` (1-based) of `scene`: its modifiers (*if, *selectable_if...) left out."""
    try:
        with open(os.path.join(scenes, scene + ".txt"), encoding="utf-8", errors="replace") as f:
            text = f.read().split("\n")[line - 1]
    except (OSError, IndexError):
        return None
    text = text.strip()
    while text.startswith("*"):
        text = re.sub(r"^\*\w+\s*(\((?:[^()]|\([^()]*\))*\))?\s*", "", text)
    return norm(text[1:]) if text.startswith("#") and "${" not in text and "@{" not in text else None


def randomtest(checkout, game, seed, scenes):
    """The paragraphs, the starred options, each one's place in randomtest's list, whether a *rand was drawn,
    and how it ended."""
    result = subprocess.run(["node", "randomtest.js", "num=1", f"game={game}", f"seed={seed}", "showText=true", "showChoices=true"],
                            cwd=checkout, capture_output=True, text=True, timeout=600)
    lines = result.stdout.split("\n")
    paragraphs, starred, rand, end = [], [], False, None
    skipping_options = False
    choice_count = 0
    bullets = 0
    guesses = []
    choices = []  # each choice's scene, the line of the option taken, and its number of groups
    block = []

    def flush():
        if block:
            text = norm(" ".join(block))
            if text:
                paragraphs.append(text)
            block.clear()

    for line in lines:
        taken = re.match(r"^(\S+) \*choice \d+#\d+ \(line (\d+)\)", line)
        if taken:
            choices.append([taken.group(1), int(taken.group(2)), 1])
        if re.match(r"^\S+ \*choice \d+#\d+", line):
            flush()
            paragraphs.append(CHOICE)
            skipping_options = True
            choice_count += 1
            bullets = 0
            continue
        if skipping_options:
            if line.startswith(" \u2022") or line.startswith("\u2022"):
                bullets += 1
                if "\u2605" in line:
                    if len(guesses) < choice_count:
                        guesses.append(bullets)
                    # A choice of several groups stars one option a group: Pajama offers "A / B".
                    text = norm(line.split("\u2605", 1)[1])
                    if starred and starred[-1][1] == choice_count:
                        starred[-1] = (starred[-1][0] + " / " + text, choice_count, starred[-1][2] + 1)
                    else:
                        starred.append((text, choice_count, 1))
                continue
            if re.match(r"^Select an? \w+: ?$", line):
                if line.startswith("Select") and choices and bullets:
                    choices[-1][2] += 1
                continue
            if line.strip() == "":
                continue
            skipping_options = False
        if re.match(r"^\S+ \*rand ", line):
            rand = True
            continue
        if line.startswith("RANDOMTEST PASSED"):
            flush()
            end = "ending"
            break
        if line.startswith("RANDOMTEST FAILED"):
            flush()
            failure = result.stdout[result.stdout.index("RANDOMTEST FAILED"):]
            # A *goto_scene to a scene with no file fails in node's file read, naming the file and no line.
            missing = re.search(r"ENOENT[^']*'[^']*/scenes/([^/']+)\.txt'", failure)
            match = re.search(r"(\S+) line (\d+)", failure)
            end = f"missing scene {missing.group(1)}" if missing else f"error {match.group(1)} line {match.group(2)}" if match else "error"
            break
        if (line.startswith("*****Seed") or line.startswith("*page_break") or line.startswith("*finish") or line.startswith("[IMAGE:")
                or line.startswith("[ACHIEVEMENT]") or line.startswith("\xa0\xa0\xa0\xa0") or re.match(r"^WARNING \S+ line \d+: ", line)
                or re.match(r"^\S+ \*(input_text|goto_scene|gosub_scene) ", line) or line.startswith("Word count:")):
            flush()
            continue
        if line.strip() == "":
            flush()
            continue
        block.append(line)
    flush()
    # A choice of several groups lists each later group with the first option's suboptions (randomtest's
    # listing), so an option taken under another one may be starred nowhere: its words are read from its line.
    for index, (text, number, parts) in enumerate(starred):
        if number - 1 < len(choices):
            scene, option_line, groups = choices[number - 1]
            if groups == parts + 1:
                last = option_text(scenes, scene, option_line)
                if last:
                    starred[index] = (text + " / " + last, number, groups)
    return paragraphs, [text for text, _, _ in starred], guesses, rand, end or "error (no verdict)"


def pajama_play(pajama, game_dir, choices, seed, home):
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data",
               XDG_STATE_HOME=home + "/state", XDG_CACHE_HOME=home + "/cache")
    result = subprocess.run([pajama, "play", game_dir, "--seed", str(seed), "--choices", ",".join(map(str, choices)), "--test-answers"],
                            capture_output=True, text=True, timeout=600, env=env)
    return result.returncode, result.stdout, result.stderr


def offered(transcript):
    """The options offered last, by number."""
    options = {}
    for line in transcript.split("\n"):
        match = re.match(r"^  (\d+)\. (.*)$", line)
        if match:
            options[int(match.group(1))] = norm(match.group(2))
        elif line.startswith("> "):
            options = {}
    return options


def taken(transcript):
    """Each option the transcript took ("> N. text"): the options offered before it by number, and N."""
    steps, options = [], {}
    for line in transcript.split("\n"):
        match = re.match(r"^  (\d+)\. (.*)$", line)
        if match:
            options[int(match.group(1))] = norm(match.group(2))
            continue
        match = re.match(r"^> (\d+)\. ", line)
        if match:
            steps.append((options, int(match.group(1))))
            options = {}
    return steps


def pajama_paragraphs(transcript, title_lines):
    paragraphs = []
    lines = transcript.split("\n")
    for index, line in enumerate(lines):
        # A choice page repeats as its prompt the paragraph the page before showed beside its own picture.
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if (following.startswith("  1. ") or following.startswith("  (type ")) and paragraphs and paragraphs[-1] == norm(line):
            continue
        if index < title_lines:
            continue
        if line.startswith("> typed: ") or line.startswith("  (type "):  # a typed answer and its question's hint
            continue
        if line.startswith("> "):
            paragraphs.append(CHOICE)
            continue
        if (re.match(r"^  \d+\. ", line) or line.startswith("(Here the game asks you") or line.startswith("Achievement: ")
                or line.startswith("(This game runs a script here") or line.startswith("(This game offers purchases here")
                or line.startswith("The game stopped: ")):
            continue
        text = norm(line)
        if text:
            paragraphs.append(text)
    return paragraphs


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seeds = 5
    if "--seeds" in sys.argv:
        seeds = int(sys.argv[sys.argv.index("--seeds") + 1])
        args.remove(str(seeds))
    verbose = "--verbose" in sys.argv
    if len(args) < 3:
        print(__doc__)
        return 2
    checkout, pajama, games = os.path.abspath(args[0]), os.path.abspath(args[1]), [os.path.abspath(g) for g in args[2:]]
    work = tempfile.mkdtemp(prefix="cs-randomtest-")
    home = tempfile.mkdtemp(prefix="cs-home-")
    try:
        copy = os.path.join(work, "choicescript")
        shutil.copytree(checkout, copy, ignore=shutil.ignore_patterns(".git"))
        totals = {"paths": 0, "identical": 0, "rand": 0}
        for game_dir in games:
            name = "g" + re.sub(r"\W", "", os.path.basename(game_dir.rstrip("/")))[:40]
            os.makedirs(os.path.join(copy, "web", name), exist_ok=True)
            link = os.path.join(copy, "web", name, "scenes")
            if not os.path.exists(link):
                os.symlink(os.path.join(game_dir, "scenes"), link)
            for seed in range(seeds):
                theirs, starred, guesses, rand, their_end = randomtest(copy, name, seed, os.path.join(game_dir, "scenes"))
                # Our option numbers: the starred option's number among the options Pajama offers there. Guessed
                # first as its place in randomtest's list (Pajama numbers a dimmed option randomtest leaves out),
                # played at once, and put right from the first option Pajama took that is not the starred one:
                # the transcript up to it depends only on the options before it.
                choices = (guesses + [1] * len(starred))[:len(starred)]
                problem = None
                checked = 0
                while True:
                    status, out, err = pajama_play(pajama, game_dir, choices, seed, home)
                    steps = taken(out)
                    def first(options, text):
                        return next((n for n, t in sorted(options.items()) if t == text), None)
                    wrong = next((i for i in range(checked, len(starred))
                                  if i >= len(steps) or steps[i][1] != first(steps[i][0], starred[i])), None)
                    if wrong is None:
                        break
                    options = steps[wrong][0] if wrong < len(steps) else offered(out)
                    number = first(options, starred[wrong])
                    if number is None:
                        problem = f"option {wrong + 1} \"{starred[wrong][:60]}\" not offered (offered: {list(options.values())[:6]})"
                        choices = choices[:wrong]
                        status, out, err = pajama_play(pajama, game_dir, choices, seed, home)
                        break
                    choices[wrong] = number
                    checked = wrong + 1
                title_lines = 0
                for line in out.split("\n"):
                    if line.strip() == "":
                        break
                    title_lines += 1
                ours = pajama_paragraphs(out, title_lines)
                if status == 0 and ours and ours[-1] == "The End":  # the transcript's own end line
                    ours.pop()
                if status == 0 and "Achievements" in ours:  # the achievements an ending's last page lists
                    ours = ours[:len(ours) - 1 - ours[::-1].index("Achievements")]
                if status == 0 and ours and ours[-1] == "The end.":  # Pajama's page for an ending with no text of its own
                    ours.pop()
                our_end = "ending" if status == 0 else ("error " + (re.search(r"(\S+) line (\d+)", err).group(0) if re.search(r"(\S+) line (\d+)", err) else err.strip()[:80]) if status == 3 else f"exit {status}")
                missing = re.search(r'there is no scene "([^"]+)"', err) if status == 3 else None
                if missing:  # as randomtest names it (the file it could not read)
                    our_end = f"missing scene {missing.group(1)}"
                theirs, ours = segments(theirs), segments(ours)
                same = problem is None and theirs == ours and their_end == our_end
                totals["paths"] += 1
                if same:
                    totals["identical"] += 1
                elif rand:
                    totals["rand"] += 1
                where = ""
                if not same and problem is None:
                    for index, (a, b) in enumerate(zip(theirs, ours)):
                        if a != b:
                            at = next(i for i in range(min(len(a), len(b)) + 1) if a[i:i + 1] != b[i:i + 1])
                            a, b = a[max(0, at - 30):], b[max(0, at - 30):]
                            where = f"after choice {index}: randomtest \"{a[:90]}\" / pajama \"{b[:90]}\""
                            break
                    else:
                        where = f"{len(theirs)} / {len(ours)} segments; ends {their_end} / {our_end}"
                print(f"{os.path.basename(game_dir.rstrip('/'))} seed {seed}: {'identical' if same else 'differs'}"
                      f" ({len(starred)} choices{', *rand' if rand else ''}){'' if same else ': ' + (problem or where)}")
                if verbose and not same:
                    print("  randomtest:", theirs[-3:], "\n  pajama:", ours[-3:])
        share = 100.0 * totals["identical"] / max(1, totals["paths"])
        print(f"{totals['identical']} of {totals['paths']} paths identical ({share:.0f}%); "
              f"{totals['rand']} of the others drew *rand")
        return 0 if totals["identical"] == totals["paths"] else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
