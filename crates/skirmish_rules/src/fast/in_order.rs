//! The in-order executor: a turn boundary's stage runs its systems one
//! after another, without the bookkeeping of Bevy's single-threaded
//! executor (see [`InOrder`]). The entry is [`run_in_order`].

use bevy_ecs::prelude::*;

/// Give `schedule`, not yet built, the in-order executor if it has no run
/// condition on any system or set (else it keeps Bevy's, which evaluates
/// them). The result is the same either way; the test below checks it.
pub(crate) fn run_in_order(schedule: &mut Schedule) {
    if unconditional(schedule) {
        schedule.set_executor(InOrder::default());
    }
}

/// Whether `schedule`, not yet built, has no run condition on any of its
/// systems or sets. (Building it moves its systems and conditions out of
/// its graph: a built one is not known to have none.)
pub(crate) fn unconditional(schedule: &Schedule) -> bool {
    let graph = schedule.graph();
    !graph.systems.is_empty()
        && graph.systems.iter().count() == graph.systems.len()
        && graph.systems.iter().all(|(_, _, c)| c.is_empty())
        && graph.system_sets.iter().all(|(_, _, c)| c.is_empty())
}

/// The executor of a turn boundary's stage: its systems one after another
/// in the order the schedule sorted them (their `before`/`after`/`chain`
/// order), their deferred commands applied at each sync point the build
/// put in and at the end. For a schedule with no run conditions that is
/// what Bevy's single-threaded executor does, without its tracking of
/// which conditions and sets have been evaluated and which systems have
/// run, a pass of bit sets on every run (as a stage runs at nearly every
/// other step of a fight, that bookkeeping cost a random game about 1.5%
/// of its instructions). Only a stage [`unconditional`] finds with none is
/// given it.
#[derive(Default)]
struct InOrder {
    /// Whether the commands still deferred at the end are left unapplied
    /// (Bevy's default: no, they are applied).
    skip_final_deferred: bool,
}

impl bevy_ecs::schedule::SystemExecutor for InOrder {
    fn init(&mut self, _schedule: &bevy_ecs::schedule::SystemSchedule) {}

    fn run(
        &mut self,
        schedule: &mut bevy_ecs::schedule::SystemSchedule,
        world: &mut World,
        _skip_systems: Option<&bevy_ecs::schedule::FixedBitSet>,
        error_handler: bevy_ecs::error::ErrorHandler,
    ) {
        use bevy_ecs::system::{RunSystemError, System};
        // SAFETY: the systems are only run and have their commands applied,
        // through `System`'s methods; none is replaced or moved.
        let systems = unsafe { schedule.systems_mut() };
        // The first system whose deferred commands are not yet applied.
        let mut unapplied = 0;
        for i in 0..systems.len() {
            let system = &mut systems[i];
            if system.system_type() == std::any::TypeId::of::<bevy_ecs::schedule::ApplyDeferred>() {
                for s in &mut systems[unapplied..i] {
                    s.apply_deferred(world);
                }
                unapplied = i + 1;
                continue;
            }
            if let Err(RunSystemError::Failed(err)) =
                system.run_without_applying_deferred((), world)
            {
                error_handler(
                    err,
                    bevy_ecs::error::ErrorContext::System {
                        name: system.name(),
                        last_run: system.get_last_run(),
                    },
                );
            }
        }
        if !self.skip_final_deferred {
            for s in &mut systems[unapplied..] {
                s.apply_deferred(world);
            }
        }
    }

    fn set_apply_final_deferred(&mut self, apply: bool) {
        self.skip_final_deferred = !apply;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Resource, Default)]
    struct Trace(Vec<&'static str>);

    #[derive(Resource)]
    struct Made;

    #[test]
    fn a_stage_run_in_order_runs_its_systems_as_bevys_executor_does() {
        // Three systems chained, the first making a resource through
        // deferred commands, the second needing it (so the build puts a
        // sync point between them), the third after; and one with no
        // order, which the sorted schedule puts somewhere. Both executors
        // give the same order, and the made resource is there when read.
        fn first(mut commands: Commands, mut t: ResMut<Trace>) {
            t.0.push("first");
            commands.insert_resource(Made);
        }
        fn second(made: Option<Res<Made>>, mut t: ResMut<Trace>) {
            t.0.push(if made.is_some() {
                "second saw it"
            } else {
                "second did not"
            });
        }
        fn third(world: &mut World) {
            world.resource_mut::<Trace>().0.push("third");
        }
        fn apart(mut t: ResMut<Trace>) {
            t.0.push("apart");
        }
        let run = |in_order: bool| {
            let mut world = World::new();
            world.init_resource::<Trace>();
            let mut schedule = Schedule::default();
            schedule.add_systems(((first, second, third).chain(), apart));
            assert!(unconditional(&schedule));
            if in_order {
                schedule.set_executor(InOrder::default());
            } else {
                schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
            }
            schedule.run(&mut world);
            schedule.run(&mut world);
            std::mem::take(&mut world.resource_mut::<Trace>().0)
        };
        let theirs = run(false);
        assert_eq!(run(true), theirs);
        let ours: Vec<_> = theirs.into_iter().filter(|s| *s != "apart").collect();
        assert_eq!(
            ours,
            [
                "first",
                "second saw it",
                "third",
                "first",
                "second saw it",
                "third"
            ]
        );
        // A run condition anywhere keeps Bevy's executor.
        let mut conditional = Schedule::default();
        conditional.add_systems((apart, first.run_if(|| false)));
        assert!(!unconditional(&conditional));
        let mut set_conditional = Schedule::default();
        set_conditional.add_systems((apart, first).run_if(|| true));
        assert!(!unconditional(&set_conditional));
    }
}
