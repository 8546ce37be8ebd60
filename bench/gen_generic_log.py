#!/usr/bin/env python3
"""A big log of a format no preset knows, for the generic reader's benchmark (bench/run.sh generic).

Its lines are the real progress lines of a detectron2 run
(tests/fixtures/logs/generic/detectron2/d2-balloon-maskrcnn-ok.log, lines 24-38: index id
45685881766, cited in that folder's README), repeated with the iteration counter and the
timestamp counting on, so the file reads as one long run; after every 10 of them one of the
log's own non-progress lines, as a real log has. Usage: gen_generic_log.py OUT MIB
"""
import re
import sys

out, mib = sys.argv[1], int(sys.argv[2])
src = "tests/fixtures/logs/generic/detectron2/d2-balloon-maskrcnn-ok.log"
lines = open(src, encoding="utf-8").read().splitlines()
progress = [l for l in lines if " iter: " in l]
other = [l for l in lines if " iter: " not in l and l.strip()]
target = mib << 20
written = 0
it = 0
with open(out, "w", encoding="utf-8") as f:
    while written < target:
        for k, line in enumerate(progress):
            it += 20
            s = re.sub(r"iter: \d+", "iter: %d" % it, line)
            s = re.sub(r"\[(\d\d/\d\d) (\d\d):(\d\d):(\d\d)", lambda m: "[%s %02d:%02d:%02d" % (
                m.group(1), (it // 3600) % 24, (it // 60) % 60, it % 60), s)
            f.write(s + "\n")
            written += len(s) + 1
            if k % 10 == 9:
                o = other[(it // 20) % len(other)]
                f.write(o + "\n")
                written += len(o) + 1
            if written >= target:
                break
