#!/usr/bin/env python3
"""Differential test of PajamaInk against bink (blade-ink's Python bindings), see docs/ink.md.

For each compiled story under the conformance folder and several seeded choice sequences, plays the story in
bink and in `pajama-ink-play` and compares the text, the tags, the choices offered and their tags line by line.
Then exchanges state: bink saves after the first choice and PajamaInk continues from that save, and the other
way round. Prints one line a story and the totals; exits 1 when a story differs.

usage: ink-bink.py PAJAMA_INK_PLAY CONFORMANCE_DIR [--verbose] [--only SUBSTRING] [--runs N]
       ink-bink.py PAJAMA_INK_PLAY --published DIR [--verbose] [--only SUBSTRING] [--runs N]

--runs N compares along the first N of the five seed pairs only (the corpus test: 2, to stay quick).

With --published, every compiled ink story under DIR is compared, known by its content as Pajama knows it (a
JSON object with a top-level inkVersion, or a web export that assigns it, `var storyContent = {...};` or
`window.storydata = {...};`), whatever its name.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from bink.story import Story

# (story seed, choice seed) pairs: the story seed drives RANDOM and shuffles, the choice seed the picks.
RUNS = [(7, 1), (7, 2), (7, 3), (42, 4), (42, 5)]
MAX_CHOICES = 40


class Picker:
    def __init__(self, seed):
        self.state = seed

    def pick(self, count):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state % count


def seeded_story(text, seed):
    story = Story(text)
    state = json.loads(story.save_state())
    state["storySeed"] = seed
    state["previousRandom"] = 0
    story.load_state(json.dumps(state))
    return story


def play_bink(text, story_seed, choice_seed, save_after=None, load_state=None, skip_picks=0):
    """Returns (transcript lines, saved state or None)."""
    lines = []
    try:
        story = seeded_story(text, story_seed)
        story.set_allow_external_function_fallbacks(True)
    except Exception as error:  # the story does not load in the reference either
        return [{"load_error": str(error)}], None
    errors = []
    story.set_error_handler(lambda message, is_error: errors.append(message) if is_error else None)
    picker = Picker(choice_seed)
    if load_state is not None:
        story.load_state(load_state)
        for _ in range(skip_picks):
            picker.pick(1000)
    made = skip_picks
    saved = None
    count = 0
    while True:
        failed = False
        while story.can_continue():
            try:
                line = story.cont()
            except Exception as error:
                errors.append(str(error))
                failed = True
                break
            lines.append({"text": line, "tags": list(story.get_current_tags())})
            count += 1
            if count > 2000:
                lines.append({"stopped": "too many lines"})
                return lines, saved
        if errors or failed:
            lines.append({"errors": len(errors)})
            break
        choices = story.get_current_choices()
        if len(choices) == 0 or made >= MAX_CHOICES:
            break
        if save_after is not None and made == save_after:
            saved = story.save_state()
            lines.append({"saved": made})
            break
        lines.append({"choices": list(choices), "choice_tags": [list(choices.get_tags(i)) for i in range(len(choices))]})
        index = picker.pick(1000) % len(choices)
        lines.append({"pick": index})
        story.choose_choice_index(index)
        made += 1
    lines.append({"end": True})
    return lines, saved


def play_pajama(binary, path, story_seed, choice_seed, extra=()):
    result = subprocess.run(
        [binary, path, "--story-seed", str(story_seed), "--choice-seed", str(choice_seed),
         "--max-choices", str(MAX_CHOICES), *extra],
        capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        return [{"crash": result.returncode, "stderr": result.stderr[-500:]}]
    # split("\n"), not splitlines(): a line of story text may hold U+2028 or U+0085, which JSON leaves raw.
    return [json.loads(line) for line in result.stdout.split("\n") if line.strip()]


def normalise(lines):
    """Error counts are compared as 'had errors', not by number (the wording differs between runtimes)."""
    out = []
    for line in lines:
        if "errors" in line:
            out.append({"errors": "some"})
        elif "load_error" in line:
            out.append({"load_error": "yes"})
        else:
            out.append(line)
    return out


def forgets_invisible_default(theirs, ours):
    """bink after a load shows the fallback choice, which it no longer knows is invisible, as an empty choice."""
    if not theirs or not ours or "choices" not in theirs or "choices" not in ours:
        return False
    kept = [i for i, text in enumerate(theirs["choices"]) if text != ""]
    return ([theirs["choices"][i] for i in kept] == ours["choices"]
            and [theirs["choice_tags"][i] for i in kept] == ours["choice_tags"])


def uses_legacy_tags(text):
    """Tags written as {"#": "..."} objects (inklecate before ink 21): bink never reports them."""
    return '{"#":' in text


def without_tags(lines):
    """The lines without their tags, and without empty lines (where a line only carried tags, bink, losing them,
    may join it to the next)."""
    return [{k: v for k, v in line.items() if k not in ("tags", "choice_tags")} for line in normalise(lines)
            if line.get("text") != ""]


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return i, x, y
    return None


def ink_json(path):
    """The JSON text of a compiled ink story at `path` (out of a web export, without byte order marks), or None."""
    if not (path.endswith(".json") or path.endswith(".js")):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read().lstrip("\ufeff \t\r\n")
    if re.match(r"(?:(?:var|let|const)\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*=", text):
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end < start or text[end + 1:].strip(" \t\r\n;"):
            return None
        text = text[start:end + 1].lstrip("\ufeff")
    try:
        document = json.loads(text)
    except ValueError:
        return None
    return text if isinstance(document, dict) and "inkVersion" in document else None


def main():
    binary = sys.argv[1]
    published = "--published" in sys.argv
    root = sys.argv[sys.argv.index("--published") + 1] if published else sys.argv[2]
    verbose = "--verbose" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    if "--runs" in sys.argv:
        del RUNS[int(sys.argv[sys.argv.index("--runs") + 1]):]
    stories = []
    for directory, _, files in os.walk(root if published else os.path.join(root, "compiled")):
        if not published and "compiler" in directory.split(os.sep):
            continue
        if published:
            stories += [os.path.join(directory, f) for f in files if ink_json(os.path.join(directory, f)) is not None]
        else:
            stories += [os.path.join(directory, f) for f in files if f.endswith(".ink.json")]
    stories.sort()
    identical = 0
    comparable = []
    differing = []
    with tempfile.TemporaryDirectory() as scratch:
        for path in stories:
            name = os.path.relpath(path, root if published else os.path.join(root, "compiled"))
            if only and only not in name:
                continue
            if published:
                # Both runtimes get the bare JSON (knowing the file is Pajama's job, compared elsewhere).
                text = ink_json(path)
                path = os.path.join(scratch, "story.ink.json")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            else:
                with open(path, encoding="utf-8-sig") as f:
                    text = f.read()
            problem = None
            legacy_tags_only = False
            version = json.loads(text).get("inkVersion")
            if isinstance(version, int) and version < 18:
                # ink 16-17: bink (like the official runtime since 2018) refuses them; PajamaInk plays them with
                # the glue of their time, checked against the inkjs the games shipped (docs/ink.md).
                reference, _ = play_bink(text, *RUNS[0])
                ours = play_pajama(binary, path, *RUNS[0])
                if "load_error" in reference[0] and "load_error" not in ours[0] and "crash" not in ours[0]:
                    comparable.append(name)
                    print(f"LIKE  {name}: ink {version}, which bink refuses as too old; PajamaInk plays it as its own"
                          " runtime did, compared with the game's inkjs (docs/ink.md, \"Ink 16 and 17\")")
                    continue
            for story_seed, seed in RUNS:
                reference, _ = play_bink(text, story_seed, seed)
                ours = play_pajama(binary, path, story_seed, seed)
                diff = first_difference(normalise(reference), normalise(ours))
                if diff and uses_legacy_tags(text) and not first_difference(without_tags(reference), without_tags(ours)):
                    legacy_tags_only = True
                    continue
                if diff:
                    problem = f"seeds {story_seed}/{seed}, line {diff[0]}: bink {diff[1]} / pajama {diff[2]}"
                    break
            if problem is None and legacy_tags_only:
                comparable.append(name)
                print(f"LIKE  {name}: the same text and choices; bink leaves out the tags of ink 20 and older"
                      " ({\"#\": ...} objects) and the lines that only carried them, which the official runtime and PajamaInk"
                      " report (docs/ink.md)")
                continue
            if problem is None:
                # State exchange: bink saves after the first choice, PajamaInk loads and continues.
                story_seed, seed = RUNS[0]
                _, saved = play_bink(text, story_seed, seed, save_after=1)
                if saved is not None:
                    state_file = os.path.join(scratch, "bink-state.json")
                    with open(state_file, "w", encoding="utf-8") as f:
                        f.write(saved)
                    ours = play_pajama(binary, path, story_seed, seed, ["--load-state", state_file, "--skip-picks", "1"])
                    theirs, _ = play_bink(text, story_seed, seed, load_state=saved, skip_picks=1)
                    diff = first_difference(normalise(theirs), normalise(ours))
                    if diff and forgets_invisible_default(diff[1], diff[2]):
                        comparable.append(name)
                        print(f"LIKE  {name}: after loading a save, bink offers the invisible default choice as an"
                              " empty choice (ink's save format does not record the flag; docs/ink.md)")
                        continue
                    if diff:
                        problem = f"after loading bink's state, line {diff[0]}: bink {diff[1]} / pajama {diff[2]}"
                    else:
                        # And the other way: PajamaInk saves, bink loads.
                        our_file = os.path.join(scratch, "pajama-state.json")
                        play_pajama(binary, path, story_seed, seed, ["--save-after", "1", our_file])
                        with open(our_file, encoding="utf-8") as f:
                            ours_saved = f.read()
                        try:
                            theirs2, _ = play_bink(text, story_seed, seed, load_state=ours_saved, skip_picks=1)
                        except Exception as error:
                            theirs2 = [{"bink_load_error": str(error)}]
                        diff = first_difference(normalise(theirs), normalise(theirs2))
                        if diff:
                            problem = f"bink loading PajamaInk's state, line {diff[0]}: {diff[1]} / {diff[2]}"
            if problem is None:
                identical += 1
                if verbose:
                    print(f"same  {name}")
            else:
                differing.append(name)
                print(f"DIFF  {name}: {problem}")
    total = identical + len(comparable) + len(differing)
    print(f"{identical}/{total} stories identical to bink, {len(comparable)} comparable (a known, explained"
          f" difference), {len(differing)} differing")
    return 0 if not differing else 1


if __name__ == "__main__":
    sys.exit(main())
