/* Save and load through the C ABI: size query, exact continuation, refusal of damaged data. */
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

static ArgusWorld *scene(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *world = NULL;
    ArgusAgentDef a = argus_default_agent_def();
    ArgusTargetDef t = argus_default_target_def();
    ArgusOccluderDef wall = argus_default_occluder_def();
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusOccluderId wall_id;
    CHECK_OK(argus_world_create(&wd, &world));
    a.sight.rate_hz = 5.0f;
    a.awareness.enabled = 1;
    CHECK_OK(argus_agent_create(world, &a, &guard));
    t.position = v3(1, 0, 7);
    CHECK_OK(argus_target_create(world, &t, &player));
    wall.position = v3(-2, 1, 4);
    wall.half_extents = v3(1, 1, 0.2f);
    CHECK_OK(argus_occluder_create(world, &wall, &wall_id));
    return world;
}

static void walk(ArgusWorld *world, int step) {
    ArgusTargetId player = {0, 0, 1};
    player.world = argus_world_tag(world); /* ids continue in a restored world, with its tag */
    ArgusSoundDef noise = argus_default_sound_def();
    CHECK_OK(argus_target_set_pose(world, player, v3(1.0f - 0.15f * (float)step, 0, 7), v3(0, 0, 1)));
    if (step % 7 == 0) {
        noise.position = v3(0, 0, -4);
        noise.loudness = 15.0f;
        noise.source = player;
        CHECK_OK(argus_world_emit_sound(world, &noise));
    }
}

/* Same event apart from the ids' world tag (each world stamps its own). */
static int same_id(uint32_t ai, uint16_t ag, uint32_t bi, uint16_t bg) { return ai == bi && ag == bg; }

static int same_percepts(ArgusPerceptArray a, ArgusPerceptArray b) {
    uint32_t i;
    if (a.count != b.count) return 0;
    for (i = 0; i < a.count; i++) {
        const ArgusPercept *x = &a.items[i], *y = &b.items[i];
        if (x->kind != y->kind || !same_id(x->agent.index, x->agent.generation, y->agent.index, y->agent.generation) ||
            !same_id(x->target.index, x->target.generation, y->target.index, y->target.generation) ||
            memcmp(&x->position, &y->position, sizeof x->position) != 0 || x->time != y->time ||
            x->strength != y->strength) {
            return 0;
        }
    }
    return 1;
}

static int same_brain_events(ArgusBrainEventArray a, ArgusBrainEventArray b) {
    uint32_t i;
    if (a.count != b.count) return 0;
    for (i = 0; i < a.count; i++) {
        const ArgusBrainEvent *x = &a.items[i], *y = &b.items[i];
        if (x->from != y->from || x->to != y->to || x->time != y->time ||
            !same_id(x->agent.index, x->agent.generation, y->agent.index, y->agent.generation) ||
            !same_id(x->target.index, x->target.generation, y->target.index, y->target.generation)) {
            return 0;
        }
    }
    return 1;
}

int main(void) {
    ArgusWorld *original = scene();
    ArgusWorld *restored = NULL;
    ArgusWorldDef wd = argus_default_world_def();
    uint32_t size = 0, written = 0;
    uint8_t *bytes;
    int step, diverged = 0, events = 0;

    for (step = 0; step < 20; step++) {
        walk(original, step);
        CHECK_OK(argus_world_step(original, 0.1f));
    }
    walk(original, 20);
    CHECK_RESULT(argus_world_save(original, NULL, 0, &size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(size > 20);
    bytes = (uint8_t *)malloc(size);
    CHECK_OK(argus_world_save(original, bytes, size, &written));
    CHECK(written == size);
    CHECK(memcmp(bytes, "ARGUSSNP", 8) == 0);

    CHECK_OK(argus_world_create(&wd, &restored));
    /* Every truncation is refused and leaves the (empty) world as it was. */
    {
        uint32_t len;
        ArgusWorldCounts counts;
        for (len = 0; len < size; len += 1 + len / 16) {
            CHECK_RESULT(argus_world_load(restored, bytes, len), ARGUS_RESULT_BAD_SNAPSHOT);
        }
        CHECK(strlen(argus_world_last_error(restored)) > 0);
        CHECK_OK(argus_world_get_counts(restored, &counts));
        CHECK(counts.agents == 0 && counts.targets == 0 && counts.occluders == 0);
        bytes[size / 2] ^= 0x5A;
        CHECK_RESULT(argus_world_load(restored, bytes, size), ARGUS_RESULT_BAD_SNAPSHOT);
        bytes[size / 2] ^= 0x5A;
    }
    CHECK_OK(argus_world_load(restored, bytes, size));

    for (step = 21; step < 60; step++) {
        ArgusPerceptArray a, b;
        ArgusBrainEventArray ba, bb;
        CHECK_OK(argus_world_step(original, 0.1f));
        CHECK_OK(argus_world_step(restored, 0.1f));
        CHECK_OK(argus_world_get_percepts(original, &a));
        CHECK_OK(argus_world_get_percepts(restored, &b));
        CHECK_OK(argus_world_get_brain_events(original, &ba));
        CHECK_OK(argus_world_get_brain_events(restored, &bb));
        if (!same_percepts(a, b) || !same_brain_events(ba, bb)) diverged++;
        events += (int)(a.count + ba.count);
        walk(original, step);
        walk(restored, step);
    }
    CHECK(diverged == 0);
    CHECK(events > 10);
    free(bytes);
    argus_world_destroy(original);
    argus_world_destroy(restored);
    return check_report("snapshot.c");
}
