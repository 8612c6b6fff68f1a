/* Labels as a C engine gives them: an agent, a target and an occluder named; read back with a
 * size query; refused when too long, not UTF-8, or for a stale id, changing nothing; removed by
 * NULL or ""; forgotten with their thing; and recorded: a world rebuilt from the recording holds
 * the names the recorded world had at that step. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

static int label_is(ArgusWorld *w, ArgusAgentId a, const char *want) {
    char buffer[ARGUS_MAX_LABEL_BYTES + 1];
    uint32_t n = 0;
    if (argus_agent_get_label(w, a, buffer, sizeof buffer, &n) != ARGUS_RESULT_OK) return 0;
    return n == strlen(want) && strcmp(buffer, want) == 0;
}

int main(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *world = NULL, *rebuilt = NULL;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusRecordDef rd = argus_default_record_def();
    ArgusAgentId guard, stale;
    ArgusTargetId player;
    ArgusOccluderId wall;
    char small[3], long_label[ARGUS_MAX_LABEL_BYTES + 2];
    uint32_t n = 0;
    uint64_t size = 0;
    uint8_t *bytes;

    CHECK_OK(argus_world_create(&wd, &world));
    CHECK_OK(argus_agent_create(world, &ad, &guard));
    td.position = v3(0, 0, 5);
    CHECK_OK(argus_target_create(world, &td, &player));
    od.position = v3(20, 1, 20);
    CHECK_OK(argus_occluder_create(world, &od, &wall));

    /* No label: length 0, "". */
    CHECK(label_is(world, guard, ""));
    CHECK_OK(argus_agent_set_label(world, guard, "G1"));
    CHECK_OK(argus_target_set_label(world, player, "player"));
    CHECK_OK(argus_occluder_set_label(world, wall, "north wall"));
    CHECK(label_is(world, guard, "G1"));
    /* Size query, then too small. */
    CHECK_RESULT(argus_target_get_label(world, player, NULL, 0, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 6);
    CHECK_RESULT(argus_occluder_get_label(world, wall, small, sizeof small, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 10);
    CHECK_RESULT(argus_agent_get_label(world, guard, small, sizeof small, NULL), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Refused, changing nothing. */
    memset(long_label, 'x', sizeof long_label - 1);
    long_label[sizeof long_label - 1] = 0;
    CHECK_RESULT(argus_agent_set_label(world, guard, long_label), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_agent_set_label(world, guard, "\xff\xfe"), ARGUS_RESULT_INVALID_ARGUMENT);
    stale = guard;
    stale.generation += 1;
    CHECK_RESULT(argus_agent_set_label(world, stale, "G2"), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_get_label(world, stale, small, sizeof small, &n), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_set_label(NULL, guard, "G2"), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(label_is(world, guard, "G1"));
    long_label[ARGUS_MAX_LABEL_BYTES] = 0; /* exactly the longest */
    CHECK_OK(argus_occluder_set_label(world, wall, long_label));
    CHECK_OK(argus_occluder_set_label(world, wall, NULL));
    CHECK_RESULT(argus_occluder_get_label(world, wall, small, sizeof small, &n), ARGUS_RESULT_OK);
    CHECK(n == 0 && small[0] == 0);

    /* Recorded: renamed after a step. */
    CHECK_OK(argus_world_start_recording(world, &rd));
    CHECK_OK(argus_world_step(world, 0.1f));
    CHECK_OK(argus_agent_set_label(world, guard, "Sergeant"));
    CHECK_OK(argus_world_step(world, 0.1f));
    CHECK_OK(argus_world_stop_recording(world));
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = malloc((size_t)size);
    CHECK_OK(argus_world_get_recording(world, bytes, size, &size));
    CHECK(bytes[8] == 6); /* format 6 */
    CHECK_OK(argus_world_create_from_recording(bytes, size, 0, &rebuilt));
    if (rebuilt) {
        ArgusAgentId there = guard;
        there.world = argus_world_tag(rebuilt);
        CHECK(label_is(rebuilt, there, "G1")); /* as recording started */
        argus_world_destroy(rebuilt);
    }
    CHECK_OK(argus_world_create_from_recording(bytes, size, 1, &rebuilt));
    if (rebuilt) {
        ArgusAgentId there = guard;
        there.world = argus_world_tag(rebuilt);
        CHECK(label_is(rebuilt, there, "G1"));
        argus_world_destroy(rebuilt);
    }
    CHECK_OK(argus_world_create_from_recording(bytes, size, UINT32_MAX, &rebuilt));
    if (rebuilt) {
        ArgusAgentId there = guard;
        there.world = argus_world_tag(rebuilt);
        CHECK(label_is(rebuilt, there, "Sergeant"));
        argus_world_destroy(rebuilt);
    }
    free(bytes);

    /* Forgotten with its thing. */
    CHECK_OK(argus_target_destroy(world, player));
    CHECK_RESULT(argus_target_get_label(world, player, small, sizeof small, &n), ARGUS_RESULT_INVALID_ID);
    argus_world_destroy(world);
    return check_report("labels.c");
}
