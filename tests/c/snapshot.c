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
    ArgusTargetId player = {0, 1};
    ArgusSoundDef noise = argus_default_sound_def();
    CHECK_OK(argus_target_set_pose(world, player, v3(1.0f - 0.15f * (float)step, 0, 7), v3(0, 0, 1)));
    if (step % 7 == 0) {
        noise.position = v3(0, 0, -4);
        noise.loudness = 15.0f;
        noise.source = player;
        CHECK_OK(argus_world_emit_sound(world, &noise));
    }
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
        if (a.count != b.count || ba.count != bb.count ||
            (a.count && memcmp(a.items, b.items, a.count * sizeof *a.items) != 0) ||
            (ba.count && memcmp(ba.items, bb.items, ba.count * sizeof *ba.items) != 0)) {
            diverged++;
        }
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
