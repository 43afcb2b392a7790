package io.lifeline.demo;

import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;

/** What the parts of one simulation share: the scenario, the clock and agenda, the random stream, the emitter. */
final class SimContext {

    final Scenario scenario;
    final Agenda agenda;
    final Rng rng;
    final Emitter emitter;
    Fleet fleet;
    Placement placement;
    Trainer trainer;
    Checkpoints checkpoints;
    Commands commands;

    SimContext(Scenario scenario, Agenda agenda, Rng rng, Emitter emitter) {
        this.scenario = scenario;
        this.agenda = agenda;
        this.rng = rng;
        this.emitter = emitter;
    }

    long now() {
        return agenda.now();
    }

    void emit(String source, EventType type, String subject, EventData data) {
        emitter.emit(source, type, subject, data);
    }
}
