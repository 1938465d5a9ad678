//! `--frame-stats`: how long each frame took, printed as percentiles when
//! the window closes. Two figures: the whole frame (what a player sees,
//! which under Xvfb includes the software rasteriser), and the CPU time of
//! the game's own world update, from the first schedule to the last (the
//! board, the panels, the engine's commands; the drawing of the picture
//! is not in it).

use std::time::{Duration, Instant};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameTimes>()
        .add_systems(First, start)
        .add_systems(Last, (stop, report).chain());
}

#[derive(Resource, Default)]
pub struct FrameTimes {
    started: Option<Instant>,
    last_frame: Option<Instant>,
    update: Vec<Duration>,
    frame: Vec<Duration>,
}

fn start(mut t: ResMut<FrameTimes>) {
    let now = Instant::now();
    if let Some(prev) = t.last_frame.replace(now) {
        t.frame.push(now - prev);
    }
    t.started = Some(now);
}

fn stop(mut t: ResMut<FrameTimes>) {
    if let Some(s) = t.started.take() {
        t.update.push(s.elapsed());
    }
}

/// The `p`th percentile (0 to 100) of `times` in milliseconds, by the
/// nearest rank.
pub fn percentile(times: &[Duration], p: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * ms.len() as f64).ceil() as usize;
    ms[rank.clamp(1, ms.len()) - 1]
}

fn report(mut exit: MessageReader<AppExit>, t: Res<FrameTimes>) {
    if exit.read().next().is_none() {
        return;
    }
    // The first frames load fonts and build the board: not the steady state.
    let skip = |v: &[Duration]| v.get(10..).unwrap_or(&[]).to_vec();
    for (what, times) in [
        ("world update (CPU)", skip(&t.update)),
        ("whole frame", skip(&t.frame)),
    ] {
        println!(
            "frame stats: {what}: {} frames, p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            times.len(),
            percentile(&times, 50.0),
            percentile(&times, 95.0),
            percentile(&times, 99.0),
            percentile(&times, 100.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let times: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&times, 50.0), 50.0);
        assert_eq!(percentile(&times, 95.0), 95.0);
        assert_eq!(percentile(&times, 100.0), 100.0);
        assert_eq!(percentile(&times, 0.0), 1.0);
        assert_eq!(percentile(&[], 95.0), 0.0);
    }
}
