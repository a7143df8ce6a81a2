#!/usr/bin/env python3
"""The bink side of `pajama-bench ink` (docs/performance.md, "ink"): times bink, the reference runtime
(Python bindings of blade-ink, installed by scripts/ink-bink.sh into .build/bink-venv), doing what the bench
times PajamaInk doing, on the same files, and prints one JSON object: the samples in seconds and a digest
of everything the story said (text, tags, choices), which the bench compares with PajamaInk's; for the
continue measurements also the thread's CPU time of each sample ("cpu").

usage: ink-bench-bink.py load FILE COUNT
       ink-bench-bink.py moves FILE COUNT           story seed 7, choices picked by the LCG seeded with 1
       ink-bench-bink.py paths FILE ROUNDS PATH...  from each knot or stitch to the next choice or the end,
                                                    the state reset before each; only the entry points that
                                                    run without an error in bink ("kept")
       ink-bench-bink.py runs FILE COUNT STEPS      what `pajama test FILE --runs COUNT --max-steps STEPS` does with
                                                    bink's own loop: from the start (bink's reset_state),
                                                    a choice at random at every choice point (Python's random,
                                                    seeded 1), to the end or STEPS choices; each run timed
                                                    inside the process (the samples), endings counted
       ink-bench-bink.py play FILE CHOICES          what `pajama play FILE --seed 7 --choices CHOICES` does, as
                                                    a whole process the bench times (ink-path): story seed 7,
                                                    every line written to /dev/null, the 1-based choices taken
"""
import importlib.util
import json
import os
import sys
import time

from bink.story import Story

# The seeded story and the choice picker of the differential test (scripts/ink-bink.py), shared.
_spec = importlib.util.spec_from_file_location("ink_bink", os.path.join(os.path.dirname(__file__), "ink-bink.py"))
ink_bink = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ink_bink)

WARMUP = 10


class Digest:
    """FNV-1a, 64 bits, over UTF-8 (the bench computes the same)."""

    def __init__(self):
        self.value = 0xCBF29CE484222325

    def add(self, text):
        for byte in text.encode("utf-8") + b"\x00":
            self.value = ((self.value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF


def seeded_story(text, seed):
    story = ink_bink.seeded_story(text, seed)
    story.set_allow_external_function_fallbacks(True)
    return story


def continue_to_choice(story, digest, errors):
    """Continues until the story stops at choices or ends; returns the number of lines."""
    lines = 0
    while story.can_continue():
        try:
            line = story.cont()
        except Exception as error:  # bink raises where PajamaInk reports to its error handler
            errors.append(str(error))
            break
        digest.add(line)
        for tag in story.get_current_tags():
            digest.add(tag)
        lines += 1
    for text in story.get_current_choices():  # bink gives the choices' texts
        digest.add(text)
    return lines


def load(text, count):
    samples = []
    for i in range(WARMUP + count):
        start = time.perf_counter()
        Story(text)
        if i >= WARMUP:
            samples.append(time.perf_counter() - start)
    return {"samples": samples}


def moves(text, count):
    story = seeded_story(text, 7)
    errors = []
    story.set_error_handler(lambda message, is_error: errors.append(message) if is_error else None)
    picker = ink_bink.Picker(1)
    digest = Digest()
    samples, cpu = [], []
    lines = continue_to_choice(story, digest, errors)
    for i in range(WARMUP + count):
        choices = story.get_current_choices()
        if not choices or errors:
            return {"error": "stopped after %d moves: %s" % (i, errors or "no choices")}
        start, start_cpu = time.perf_counter(), time.thread_time()
        story.choose_choice_index(picker.pick(len(choices)))
        lines += continue_to_choice(story, digest, errors)
        if i >= WARMUP:
            samples.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
    return {"samples": samples, "cpu": cpu, "lines": lines, "digest": "%016x" % digest.value}


def runs_cleanly(text, name):
    """Whether a fresh story runs from `name` to a choice or its end without an error (bink panics, and
    says so on stderr, on some entry points that PajamaInk reports as errors)."""
    story = seeded_story(text, 7)
    errors = []
    story.set_error_handler(lambda message, is_error: errors.append(message) if is_error else None)
    lines = 0
    try:
        story.choose_path_string(name)
        lines = continue_to_choice(story, Digest(), errors)
    except Exception as error:
        errors.append(str(error))
    return lines > 0 and not errors


def reseed(story, seed):
    """After reset_state (which picks a random seed), the seed PajamaInk's resetState(seed:) is given."""
    story.load_state(json.dumps(dict(json.loads(story.save_state()), storySeed=seed, previousRandom=0)))


def paths(text, rounds, names):
    """From each entry point that runs cleanly, in a state reset (not timed) before each."""
    kept = [name for name in names if runs_cleanly(text, name)]
    story = seeded_story(text, 7)
    errors = []
    story.set_error_handler(lambda message, is_error: errors.append(message) if is_error else None)
    digest = Digest()
    samples, cpu = [], []
    for r in range(1 + rounds):
        for name in kept:
            story.reset_state()
            reseed(story, 7)
            start, start_cpu = time.perf_counter(), time.thread_time()
            story.choose_path_string(name)
            continue_to_choice(story, digest, errors)
            if r >= 1:
                samples.append(time.perf_counter() - start)
                cpu.append(time.thread_time() - start_cpu)
    result = {"samples": samples, "cpu": cpu, "kept": kept, "digest": "%016x" % digest.value}
    if errors:
        result["errors"] = len(errors)
    return result


def play(text, choices):
    """Reads from the start taking `choices` (1-based), every line and choice text to /dev/null; the result
    says how many were taken."""
    story = seeded_story(text, 7)
    taken = 0
    with open(os.devnull, "w", encoding="utf-8") as out:
        for number in choices:
            while story.can_continue():
                out.write(story.cont())
            offered = story.get_current_choices()
            if number < 1 or number > len(offered):
                break
            for choice in offered:
                out.write(choice + "\n")
            story.choose_choice_index(number - 1)
            taken += 1
        while story.can_continue():
            out.write(story.cont())
    return {"taken": taken, "samples": []}


def runs(text, count, steps):
    """`count` random runs from the start, each to the end or `steps` choices; each run's time a sample."""
    import random
    picker = random.Random(1)
    story = seeded_story(text, 7)
    endings, capped, samples = 0, 0, []
    for _ in range(count):
        start = time.perf_counter()
        story.reset_state()
        for _ in range(steps):
            while story.can_continue():
                story.cont()
            offered = story.get_current_choices()
            if not offered:
                endings += 1
                break
            story.choose_choice_index(picker.randrange(len(offered)))
        else:
            capped += 1
        samples.append(time.perf_counter() - start)
    return {"samples": samples, "runs": count, "endings": endings, "capped": capped}


def main(argv):
    if len(argv) < 4 or argv[1] not in ("load", "moves", "paths", "play", "runs"):
        sys.exit(__doc__)
    if argv[1] == "runs":
        text = ink_bink.ink_json(argv[2])
        print(json.dumps(runs(text, int(argv[3]), int(argv[4]) if len(argv) > 4 else 500)))
        return
    if argv[1] == "play":
        text = ink_bink.ink_json(argv[2])  # a web export's JSON too, as pajama play reads it
        print(json.dumps(play(text, [int(n) for n in argv[3].split(",")])))
        return
    with open(argv[2], encoding="utf-8-sig") as file:
        text = file.read()
    if argv[1] == "load":
        result = load(text, int(argv[3]))
    elif argv[1] == "moves":
        result = moves(text, int(argv[3]))
    else:
        result = paths(text, int(argv[3]), argv[4:])
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
