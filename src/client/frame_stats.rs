//! `--frame-stats`: how long each frame took, printed as percentiles when
//! the window closes. Two figures: the whole frame (what a player sees,
//! which under Xvfb includes the software rasteriser), and the game's own
//! world update, from the first schedule to the last (the board, the
//! panels, the engine's commands and the AI).
//!
//! A software rasteriser draws on the same cores, and a wall clock around
//! the update counts the time it was kept waiting as the game's. So with
//! this flag the world's schedules run on the main thread alone, each
//! frame waits until its picture is drawn, and the update's CPU time is
//! read from the main thread's own CPU clock: the work the game did, not
//! the time it waited. (Wall-clock figures are printed beside it.)

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::render_resource::PollType;
use bevy::render::renderer::RenderDevice;
use bevy::render::{Render, RenderApp, RenderSystems};

pub(super) fn plugin(app: &mut App) {
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    for label in [
        First.intern(),
        PreUpdate.intern(),
        Update.intern(),
        PostUpdate.intern(),
        Last.intern(),
    ] {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
    }
    app.init_resource::<FrameTimes>()
        .add_systems(First, start)
        .add_systems(Last, (stop, report).chain());
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render.add_systems(
            Render,
            wait_for_the_picture.in_set(RenderSystems::PostCleanup),
        );
    }
}

/// The frame's drawing is finished before the next update begins.
fn wait_for_the_picture(device: Res<RenderDevice>) {
    let _ = device.poll(PollType::wait_indefinitely());
}

#[derive(Resource, Default)]
pub struct FrameTimes {
    started: Option<(Instant, Duration)>,
    last_frame: Option<Instant>,
    update_cpu: Vec<Duration>,
    update: Vec<Duration>,
    frame: Vec<Duration>,
}

/// The CPU time the calling thread has used.
fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the call to fill,
        // and CLOCK_THREAD_CPUTIME_ID needs nothing else.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
        if ok {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

fn start(mut t: ResMut<FrameTimes>) {
    let now = Instant::now();
    if let Some(prev) = t.last_frame.replace(now) {
        t.frame.push(now - prev);
    }
    t.started = Some((now, thread_cpu()));
}

fn stop(mut t: ResMut<FrameTimes>) {
    if let Some((wall, cpu)) = t.started.take() {
        t.update.push(wall.elapsed());
        t.update_cpu.push(thread_cpu().saturating_sub(cpu));
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
        ("world update, CPU", skip(&t.update_cpu)),
        ("world update, wall clock", skip(&t.update)),
        ("whole frame, wall clock", skip(&t.frame)),
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

    #[test]
    fn the_thread_clock_counts_work_not_sleep() {
        let a = thread_cpu();
        std::thread::sleep(Duration::from_millis(30));
        let slept = thread_cpu() - a;
        let b = thread_cpu();
        let mut x = 0u64;
        while thread_cpu() - b < Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(slept < Duration::from_millis(10), "{slept:?} while asleep");
        assert!(thread_cpu() - b >= Duration::from_millis(20));
    }
}
