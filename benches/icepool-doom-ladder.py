"""The README's main job (scenarios/doom-ladder.toml: five hero pools against
nine doom pools) answered by icepool, the Python dice library, for a timing
beside `oddsmith run` (docs/benchmarks.md):

    pip install icepool==2.1.3
    hyperfine -w 3 'python3 benches/icepool-doom-ladder.py' \
        './target/release/oddsmith run scenarios/doom-ladder.toml --out /tmp/ladder --quiet'

It prints, per case, the chance of success, of a heroic success (a margin
of 5 or more), of a tie, the hero's mean total and the mean margin; ties go
to the doom pool, as the scenario sets. Its numbers are oddsmith's to the
last digit (the exact method's metrics.csv).
"""

import icepool
from icepool import d


def cortex_total(pool):
    """The total of the best two dice: a 1 is a hitch and never counts."""
    sizes = []
    for term in pool.split():
        count, size = term.split("d")
        sizes += [int(size)] * (int(count) if count else 1)
    dice = [d(s).map(lambda face: 0 if face == 1 else face) for s in sizes]
    return icepool.Pool(dice).highest(2).sum()


HEROES = ["d8 2d6", "d8 d8 d6", "d10 2d8 d6", "d12 d10 d8 d6", "d12 d10 2d8 d6"]
DOOMS = ["2d6", "2d8", "2d10", "3d6", "3d8", "3d10", "4d6", "4d8", "4d10"]

for hero_pool in HEROES:
    hero = cortex_total(hero_pool)
    for doom_pool in DOOMS:
        margin = hero - cortex_total(doom_pool)
        print(
            f"{hero_pool} vs {doom_pool}",
            float(margin.probability(">", 0)),
            float(margin.probability(">=", 5)),
            float(margin.probability("==", 0)),
            float(hero.mean()),
            float(margin.mean()),
        )
