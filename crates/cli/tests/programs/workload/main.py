"""specdiff test workload: a small multi-module program touching many specializations.

Run as `python main.py [ROUNDS]`; prints one summary line. Keep it under a second on 3.11.
"""
import sys

import asyncwork
import shapes
import textproc


class Config:
    # A class body with a nested class and a class-level comprehension (3.11: own code object).
    SIZES = [n * 10 for n in range(1, 4)]

    class Defaults:
        rounds = 600


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 else Config.Defaults.rounds
    points = [shapes.Point(i % 17, i % 5) for i in range(2000)]
    for _ in range(max(1, rounds // 20)):
        cx, cy = shapes.centroid(points)
    kinds = [shapes.Circle(1.5), shapes.Square(2), shapes.Rect(2, 3.5), shapes.Tri(3, 4),
             shapes.Blob()]
    area = 0.0
    for _ in range(rounds):
        area += shapes.total_area(kinds)
    described = [s.describe() for s in kinds]
    settings = shapes.Settings(width=3)
    checksum = shapes.settings_checksum(settings, rounds * 5)
    mix = shapes.int_float_mix(rounds * 100)
    norms = sum(p.norm2() for p in points[:500])
    top, mean_len, firsts, vowels, longest = textproc.stats(textproc.SAMPLE * 5)
    results = asyncwork.run(4, 50)
    print("centroid=(%.3f,%.3f) area=%.1f checksum=%d mix=%d norms=%d top=%s words=%.2f "
          "async=%s described=%d sizes=%s" % (cx, cy, area, checksum, mix[0], norms, top[0][0],
                                               mean_len, results[0], len(described),
                                               Config.SIZES))


if __name__ == "__main__":
    main(sys.argv)
