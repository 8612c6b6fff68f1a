/* Recordings that go somewhere as they are made, as a C engine uses them: to the engine's write
 * callback and to a file (the bytes of the same recording kept in memory), and the flight
 * recorder, whose saved window (to a file and to a callback, the same bytes) replays on its own.
 * A failing callback ends the recording with WRITE_FAILED; wrong settings are refused and change
 * nothing. Two worlds built alike record alike, so one records in memory for comparison. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define STEPS 150
#define FILE_PATH "argus-recording-streams-test.argusrec"
#define FLIGHT_PATH "argus-flight-test.argusrec"

/* A growing byte buffer, filled by the write callback. */
typedef struct {
    uint8_t *bytes;
    uint64_t size;
    int calls;
    int fail_after; /* calls accepted before it fails; -1: never */
} Sink;

static ArgusResult write_to(void *user, const uint8_t *bytes, uint64_t size) {
    Sink *s = (Sink *)user;
    if (s->fail_after >= 0 && s->calls >= s->fail_after) return ARGUS_RESULT_INVALID_ARGUMENT;
    s->calls++;
    s->bytes = realloc(s->bytes, (size_t)(s->size + size));
    memcpy(s->bytes + s->size, bytes, (size_t)size);
    s->size += size;
    return ARGUS_RESULT_OK;
}

static ArgusTargetId player;

/* A guard, a wall and a walking player; the same world every time. */
static ArgusWorld *scene(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *world = NULL;
    ArgusAgentDef a = argus_default_agent_def();
    ArgusTargetDef t = argus_default_target_def();
    ArgusOccluderDef wall = argus_default_occluder_def();
    ArgusAgentId guard;
    ArgusOccluderId wall_id;
    CHECK_OK(argus_world_create(&wd, &world));
    a.awareness.enabled = 1;
    CHECK_OK(argus_agent_create(world, &a, &guard));
    t.position = v3(4, 0, 7);
    CHECK_OK(argus_target_create(world, &t, &player));
    wall.shape = ARGUS_SHAPE_KIND_BOX;
    wall.half_extents = v3(1, 2, 0.2f);
    wall.position = v3(-2, 2, 4);
    CHECK_OK(argus_occluder_create(world, &wall, &wall_id));
    return world;
}

static void steps(ArgusWorld *world, int from, int to) {
    int k;
    for (k = from; k < to; k++) {
        float x = 4.0f - 0.05f * (float)(k % 160);
        CHECK_OK(argus_target_set_pose(world, player, v3(x, 0, 7), v3(-1, 0, 0)));
        CHECK_OK(argus_world_step(world, 1.0f / 60.0f));
    }
}

static uint8_t *in_memory(uint64_t *size) {
    ArgusWorld *world = scene();
    ArgusRecordDef def = argus_default_record_def();
    uint8_t *bytes;
    CHECK_OK(argus_world_start_recording(world, &def));
    steps(world, 0, STEPS);
    CHECK_OK(argus_world_stop_recording(world));
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = malloc((size_t)*size);
    CHECK_OK(argus_world_get_recording(world, bytes, *size, size));
    argus_world_destroy(world);
    return bytes;
}

static uint8_t *read_file(const char *path, uint64_t *size) {
    FILE *f = fopen(path, "rb");
    uint8_t *bytes;
    long n;
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc((size_t)n + 1);
    *size = fread(bytes, 1, (size_t)n, f);
    fclose(f);
    return bytes;
}

static int can_write_files(void) {
    FILE *f = fopen(FILE_PATH, "wb");
    if (f == NULL) return 0;
    fclose(f);
    return 1;
}

int main(void) {
    uint64_t memory_size = 0, size = 0;
    uint8_t *memory = in_memory(&memory_size);
    ArgusWorld *world;
    ArgusRecordDef def = argus_default_record_def();
    ArgusReplayReport report;
    Sink sink = {NULL, 0, 0, -1};
    Sink window = {NULL, 0, 0, -1};

    CHECK_OK(argus_replay_verify(memory, memory_size, &report));

    /* To the engine's callback: the same bytes. */
    world = scene();
    def.to = ARGUS_RECORD_TO_CALLBACK;
    def.write = write_to;
    def.write_user_data = &sink;
    CHECK_OK(argus_world_start_recording(world, &def));
    steps(world, 0, STEPS);
    CHECK_OK(argus_world_stop_recording(world));
    CHECK(sink.size == memory_size && memcmp(sink.bytes, memory, (size_t)memory_size) == 0);
    CHECK(sink.calls >= 2);
    /* Nothing is kept in the world. */
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size), ARGUS_RESULT_INVALID_ARGUMENT);
    argus_world_destroy(world);

    /* To a file: the same bytes (where this system lets the test create a file; where it does
     * not, the start is refused with WRITE_FAILED and the world is not recording). */
    world = scene();
    def = argus_default_record_def();
    def.to = ARGUS_RECORD_TO_FILE;
    def.path = FILE_PATH;
    if (can_write_files()) {
        uint8_t *file;
        CHECK_OK(argus_world_start_recording(world, &def));
        steps(world, 0, STEPS);
        CHECK_OK(argus_world_stop_recording(world));
        file = read_file(FILE_PATH, &size);
        CHECK(file != NULL && size == memory_size && memcmp(file, memory, (size_t)size) == 0);
        free(file);
        remove(FILE_PATH);
    } else {
        CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_WRITE_FAILED);
        CHECK(argus_world_is_recording(world) == 0);
        CHECK(1);
    }
    /* A file that cannot be created: refused, nothing started. */
    def.path = "no-such-directory-argus/x.argusrec";
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_WRITE_FAILED);
    CHECK(argus_world_is_recording(world) == 0);
    argus_world_destroy(world);

    /* A callback that fails: the recording ends with WRITE_FAILED. */
    world = scene();
    def = argus_default_record_def();
    def.to = ARGUS_RECORD_TO_CALLBACK;
    def.write = write_to;
    free(sink.bytes);
    memset(&sink, 0, sizeof sink);
    sink.fail_after = 1;
    def.write_user_data = &sink;
    CHECK_OK(argus_world_start_recording(world, &def));
    steps(world, 0, STEPS);
    CHECK_RESULT(argus_world_stop_recording(world), ARGUS_RESULT_WRITE_FAILED);
    CHECK(strstr(argus_last_error(), "write callback returned") != NULL);
    CHECK(argus_world_is_recording(world) == 0);
    argus_world_destroy(world);

    /* Wrong settings change nothing. */
    world = scene();
    def = argus_default_record_def();
    def.to = (ArgusRecordTo)9;
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    def.to = ARGUS_RECORD_TO_FILE;
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT); /* path NULL */
    def.path = "";
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    def.to = ARGUS_RECORD_TO_CALLBACK;
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT); /* write NULL */
    def.to = ARGUS_RECORD_TO_FLIGHT;
    def.flight_seconds = 0.0f;
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    def.flight_seconds = -2.0f;
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(argus_world_is_recording(world) == 0);
    CHECK_RESULT(argus_world_save_flight_recording(world, FLIGHT_PATH, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_write_flight_recording(world, write_to, &window, NULL), ARGUS_RESULT_INVALID_ARGUMENT);

    /* The flight recorder: the last second, saved while the recording goes on. */
    def.flight_seconds = 1.0f;
    CHECK_OK(argus_world_start_recording(world, &def));
    CHECK_RESULT(argus_world_write_flight_recording(world, NULL, NULL, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_save_flight_recording(world, NULL, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    steps(world, 0, 3 * STEPS);
    size = 0;
    window.fail_after = -1;
    CHECK_OK(argus_world_write_flight_recording(world, write_to, &window, &size));
    CHECK(size == window.size && size > 16);
    CHECK_OK(argus_replay_verify(window.bytes, window.size, &report));
    /* At least a second of 60 Hz steps, less than all 450. */
    CHECK(report.step_count >= 60 && report.step_count < 3 * STEPS && report.mismatch_step == ARGUS_NO_STEP);
    if (can_write_files()) {
        uint64_t saved = 0, read = 0;
        uint8_t *file;
        CHECK_OK(argus_world_save_flight_recording(world, FLIGHT_PATH, &saved));
        file = read_file(FLIGHT_PATH, &read);
        CHECK(file != NULL && read == saved && saved == window.size && memcmp(file, window.bytes, (size_t)read) == 0);
        free(file);
        remove(FLIGHT_PATH);
        remove(FILE_PATH);
    } else {
        CHECK_RESULT(argus_world_save_flight_recording(world, FLIGHT_PATH, NULL), ARGUS_RESULT_WRITE_FAILED);
        CHECK(1);
    }
    CHECK(argus_world_is_recording(world) == 1);
    /* A window given to a callback that fails: WRITE_FAILED, the recording goes on. */
    free(window.bytes);
    memset(&window, 0, sizeof window);
    window.fail_after = 0;
    CHECK_RESULT(argus_world_write_flight_recording(world, write_to, &window, NULL), ARGUS_RESULT_WRITE_FAILED);
    CHECK(argus_world_is_recording(world) == 1);
    steps(world, 0, 10);
    CHECK_OK(argus_world_stop_recording(world));
    /* A stopped flight recorder keeps nothing to copy out. */
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size), ARGUS_RESULT_INVALID_ARGUMENT);
    argus_world_destroy(world);

    CHECK(strcmp(argus_result_name(ARGUS_RESULT_WRITE_FAILED), "ARGUS_RESULT_WRITE_FAILED") == 0);
    free(sink.bytes);
    free(window.bytes);
    free(memory);
    return check_report("recording_streams.c");
}
