//! Speed of the battlefield functions on a 64 x 64 map with 20% walls
//! (issue #3 point 6). Run: `cargo bench -p skirmish_rules --bench battlefield`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish_rules::map::area::burst;
use skirmish_rules::map::movement::{Mover, reachable};
use skirmish_rules::map::{Footprint, Map, Occupant, Pos, Side, Terrain, line_of_effect};
use skirmish_rules::stats::CreatureId;

/// The allocator the `skirmish` binary uses, so the figures are what `skirmish
/// sim` gets.
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

/// A 64 x 64 map, 20% of its squares walls, seeded.
fn map() -> Map {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut m = Map::new(64, 64);
    for p in m.squares().collect::<Vec<_>>() {
        if rng.random_bool(0.2) {
            m.set_terrain(p, Terrain::Wall);
        }
    }
    m
}

/// Pairs of open squares 3 to 12 apart, for line of effect.
fn pairs(m: &Map) -> Vec<(Footprint, Footprint)> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = Vec::new();
    while out.len() < 256 {
        let a = Pos::new(rng.random_range(0..64), rng.random_range(0..64));
        let b = a.offset(rng.random_range(-12..=12), rng.random_range(-12..=12));
        if m.in_bounds(b) && a.distance(b) >= 3 && !m.cell(a).is_wall() && !m.cell(b).is_wall() {
            out.push((Footprint::single(a), Footprint::single(b)));
        }
    }
    out
}

fn open_squares(m: &Map, n: usize) -> Vec<Pos> {
    m.squares()
        .filter(|&p| !m.cell(p).is_wall())
        .step_by(7)
        .take(n)
        .collect()
}

fn bench(c: &mut Criterion) {
    let m = map();
    let pairs = pairs(&m);
    let mut i = 0;
    c.bench_function("line_of_effect (two creatures, 64x64, 20% walls)", |b| {
        b.iter(|| {
            let (a, t) = pairs[i % pairs.len()];
            i += 1;
            black_box(line_of_effect(&m, black_box(a), black_box(t)))
        })
    });

    let origins = open_squares(&m, 128);
    let mut j = 0;
    c.bench_function("burst 5 with line-of-effect filter", |b| {
        b.iter(|| {
            let o = origins[j % origins.len()];
            j += 1;
            black_box(burst(&m, Footprint::single(o), 5))
        })
    });

    let creatures: Vec<Occupant> = open_squares(&m, 10)
        .into_iter()
        .enumerate()
        .map(|(k, p)| Occupant {
            id: CreatureId(100 + k as u32),
            space: Footprint::single(p),
            side: if k % 2 == 0 {
                Side::Director
            } else {
                Side::Heroes
            },
            can_react: true,
        })
        .collect();
    let mut k = 0;
    c.bench_function("reachable squares at speed 6", |b| {
        b.iter(|| {
            let o = origins[k % origins.len()];
            k += 1;
            let mover = Mover {
                id: CreatureId(1),
                space: Footprint::single(o),
                side: Side::Heroes,
                speed: 6,
                extra_cost: 0,
                shifting: false,
                modes: Default::default(),
            };
            black_box(reachable(&m, &creatures, &mover))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
