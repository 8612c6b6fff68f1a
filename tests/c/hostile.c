/* Hostile input through the C ABI. Every refused call must return the exact result code, leave
 * an explanation in argus_world_last_error, leave its out-parameters untouched and leave the
 * world's observable state (counts, time, agent states, defs and memories, target defs, percept
 * and event arrays, attitudes, pending step) exactly as it was.
 *
 * Cases that could crash (reads past a buffer, reentrancy, runaway allocation) run in a forked
 * child, so a crash is reported as one failed check instead of ending the program. Small
 * buffers sit right before a PROT_NONE page: a read past their end is a SIGSEGV even without
 * valgrind. */
#define _DEFAULT_SOURCE 1
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "argus.h"
#include "check.h"

/* The panic firewall's test hook: exported only by test builds (cargo feature `testing`, which
 * `cargo test` turns on), never declared in the shipped argus.h. */
ArgusResult argus_testing_trigger_panic(struct ArgusWorld *world);

/* ---- layout: the same numbers src/ffi asserts, plus the structs it does not --------------- */

#define LAYOUT(cond) __extension__ _Static_assert(cond, #cond)
LAYOUT(sizeof(ArgusResult) == 4);
LAYOUT(sizeof(ArgusVec3) == 12);
LAYOUT(sizeof(ArgusQuat) == 16);
LAYOUT(sizeof(ArgusAgentId) == 8);
LAYOUT(sizeof(ArgusTargetId) == 8);
LAYOUT(sizeof(ArgusOccluderId) == 8);
LAYOUT(sizeof(ArgusWorldDef) == 28);
LAYOUT(sizeof(ArgusWorldCounts) == 16);
LAYOUT(sizeof(ArgusAgentDef) == 176);
LAYOUT(sizeof(ArgusAgentState) == 88);
LAYOUT(sizeof(ArgusAgentStateEntry) == 96);
LAYOUT(sizeof(ArgusMemoryRecord) == 56);
LAYOUT(sizeof(ArgusTargetDef) == 152 && offsetof(ArgusTargetDef, top_speed) == 140);
LAYOUT(sizeof(ArgusSoundDef) == 36);
LAYOUT(sizeof(ArgusSightResult) == 248);
LAYOUT(sizeof(ArgusDebugDrawOptions) == 16);
LAYOUT(sizeof(ArgusDebugLine) == 28);
LAYOUT(sizeof(ArgusDebugPoint) == 24);
LAYOUT(sizeof(ArgusPercept) == 72);
LAYOUT(offsetof(ArgusPercept, distance) == 48 && offsetof(ArgusPercept, agent_user_data) == 56);
LAYOUT(sizeof(ArgusSightEvent) == 48);
LAYOUT(sizeof(ArgusSightEventArray) == 16);
LAYOUT(sizeof(ArgusBrainEvent) == 48);
LAYOUT(sizeof(ArgusForgetEvent) == 48);
LAYOUT(sizeof(ArgusAwarenessEvent) == 48);
LAYOUT(sizeof(ArgusRay) == 64);
LAYOUT(offsetof(ArgusRay, agent_user_data) == 48);
LAYOUT(sizeof(ArgusTargetRef) == 16 && offsetof(ArgusTargetRef, user_data) == 8);
LAYOUT(sizeof(ArgusRayHit) == 8);
/* Structs holding pointers: {pointer, u32} pairs and the occluder def's mesh arrays. */
LAYOUT(sizeof(ArgusPerceptArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusBrainEventArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusForgetEventArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusAwarenessEventArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusRayArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusDebugDraw) == 4 * sizeof(void *));
LAYOUT(sizeof(ArgusOccluderDef) == (sizeof(void *) == 8 ? 104 : 96));
LAYOUT(offsetof(ArgusOccluderDef, sound_transmission) == (sizeof(void *) == 8 ? 92 : 80));
LAYOUT(offsetof(ArgusAgentDef, forward) == 12);
LAYOUT(offsetof(ArgusAgentDef, sight) == 32);
LAYOUT(offsetof(ArgusAgentDef, sight.view_radius) == 44);
LAYOUT(offsetof(ArgusAgentDef, sight.enabled) == 76);
LAYOUT(offsetof(ArgusAgentDef, hearing) == 80);
LAYOUT(offsetof(ArgusAgentDef, memory) == 100);
LAYOUT(offsetof(ArgusAgentDef, brain) == 108);
LAYOUT(offsetof(ArgusAgentDef, brain.search) == 120);
LAYOUT(offsetof(ArgusAgentDef, awareness) == 128);
LAYOUT(offsetof(ArgusAgentDef, awareness.enabled) == 156);
LAYOUT(offsetof(ArgusAgentDef, internal_cookie) == 160);
LAYOUT(sizeof(ArgusAgentDef) == 176);
LAYOUT(sizeof(ArgusSightSettings) == 48);
LAYOUT(sizeof(ArgusHearingSettings) == 20 && offsetof(ArgusHearingSettings, path) == 12);
LAYOUT(sizeof(ArgusWalkGridDef) == 44 && sizeof(ArgusWalkEdge) == 12 && sizeof(ArgusWalkNode) == 16);
LAYOUT(sizeof(ArgusWalkGraphInfo) == 16);
LAYOUT(sizeof(ArgusMemorySettings) == 8);
LAYOUT(sizeof(ArgusBrainSettings) == 20 && offsetof(ArgusBrainSettings, give_up_probability) == 16);
LAYOUT(sizeof(ArgusBeliefInfo) == 40 && offsetof(ArgusBeliefInfo, search_point) == 24);
LAYOUT(sizeof(ArgusSearchPoint) == 16);
LAYOUT(sizeof(ArgusAwarenessSettings) == 32);
LAYOUT(offsetof(ArgusAgentState, brain_state) == 48);
LAYOUT(offsetof(ArgusAgentState, focus) == 52);
LAYOUT(offsetof(ArgusAgentState, has_move_target) == 68);
LAYOUT(offsetof(ArgusMemoryRecord, confidence) == 20);
LAYOUT(offsetof(ArgusMemoryRecord, seen) == 40);
LAYOUT(offsetof(ArgusTargetDef, check_point_offsets) == 32);
LAYOUT(offsetof(ArgusTargetDef, check_point_count) == 128);
LAYOUT(offsetof(ArgusTargetDef, enabled) == 136);
LAYOUT(offsetof(ArgusSoundDef, source) == 16);
LAYOUT(offsetof(ArgusSoundDef, internal_cookie) == 32);
LAYOUT(offsetof(ArgusWorldDef, hearing_path) == 20 && offsetof(ArgusWorldDef, internal_cookie) == 24);
LAYOUT(offsetof(ArgusOccluderDef, rotation) == 16);
LAYOUT(offsetof(ArgusOccluderDef, radius) == 44);
LAYOUT(offsetof(ArgusOccluderDef, vertex_count) == 52);
LAYOUT(offsetof(ArgusOccluderDef, vertices) == (sizeof(void *) == 8 ? 64 : 60));
LAYOUT(offsetof(ArgusSightResult, point_status) == 20);
LAYOUT(offsetof(ArgusSightResult, point_positions) == 52);
LAYOUT(offsetof(ArgusSightResult, point_hits) == 148);
LAYOUT(offsetof(ArgusSightResult, seen) == 244);
LAYOUT(offsetof(ArgusPercept, position) == 20);
LAYOUT(offsetof(ArgusPercept, strength) == 36);
LAYOUT(offsetof(ArgusRay, agent) == 32);
LAYOUT(offsetof(ArgusDebugPoint, style) == 20);
LAYOUT(offsetof(ArgusDebugDrawOptions, circle_segments) == 12);
/* ABI v2: ids carry their world; enums are 4 bytes; user_data is appended to defs and events. */
LAYOUT(offsetof(ArgusAgentId, world) == 4);
LAYOUT(offsetof(ArgusAgentId, generation) == 6);
LAYOUT(sizeof(ArgusPlane) == 4 && sizeof(ArgusShapeKind) == 4 && sizeof(ArgusBrainState) == 4);
LAYOUT(offsetof(ArgusAgentDef, user_data) == 168);
LAYOUT(offsetof(ArgusTargetDef, user_data) == 144);
LAYOUT(offsetof(ArgusOccluderDef, user_data) == (sizeof(void *) == 8 ? 96 : 84));
LAYOUT(offsetof(ArgusAgentState, user_data) == 72);
LAYOUT(offsetof(ArgusAgentStateEntry, state) == 8);
LAYOUT(offsetof(ArgusMemoryRecord, target_user_data) == 48);
LAYOUT(offsetof(ArgusPercept, sound_index) == 40);
LAYOUT(offsetof(ArgusPercept, loudness) == 44);
LAYOUT(offsetof(ArgusPercept, agent_user_data) == 56);
LAYOUT(offsetof(ArgusSightEvent, time) == 28);
LAYOUT(offsetof(ArgusSightEvent, agent_user_data) == 32);
LAYOUT(offsetof(ArgusBrainEvent, agent_user_data) == 32);
LAYOUT(offsetof(ArgusForgetEvent, target_user_data) == 40);
LAYOUT(offsetof(ArgusAwarenessEvent, agent_user_data) == 32);

/* ---- a world with something in it, and everything observable about it --------------------- */

#define NA 3 /* agents */
#define NT 3 /* targets */
#define NO 2 /* occluders */
#define MAXM 8
#define MAXE 32

typedef struct Fx {
    ArgusWorld *w;
    int engine;
    ArgusAgentId a[NA];
    ArgusTargetId t[NT];
    ArgusOccluderId o[NO];
} Fx;

static const ArgusQuat IDENTITY = {0, 0, 0, 1};

static void fx_step(Fx *fx, float dt) {
    if (fx->engine) {
        ArgusRayArray rays;
        ArgusRayHit hits[MAXE];
        uint32_t i;
        CHECK_OK(argus_world_step_begin(fx->w, dt, &rays));
        CHECK(rays.count <= MAXE);
        for (i = 0; i < MAXE; i++) {
            hits[i].hit = 0;
            hits[i].distance = 0.0f;
        }
        CHECK_OK(argus_world_step_finish(fx->w, hits, rays.count));
    } else {
        CHECK_OK(argus_world_step(fx->w, dt));
    }
}

static ArgusAgentDef guard_def(ArgusVec3 at, ArgusVec3 forward) {
    ArgusAgentDef d = argus_default_agent_def();
    d.position = at;
    d.forward = forward;
    d.sight.rate_hz = 0.0f;
    return d;
}

static ArgusTargetDef target_def(ArgusVec3 at) {
    ArgusTargetDef d = argus_default_target_def();
    d.position = at;
    return d;
}

/* a0 at the origin facing +Z sees t0 and hears a sound; a1 sees t2; a2 and t1 see nothing. */
static void fx_make(Fx *fx, uint32_t backend) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusAgentDef ad;
    ArgusTargetDef td;
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusSoundDef sd = argus_default_sound_def();
    memset(fx, 0, sizeof *fx);
    wd.ray_backend = backend;
    fx->engine = backend == ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&wd, &fx->w));
    ad = guard_def(v3(0, 0, 0), v3(0, 0, 1));
    CHECK_OK(argus_agent_create(fx->w, &ad, &fx->a[0]));
    ad = guard_def(v3(20, 0, 0), v3(-1, 0, 0));
    CHECK_OK(argus_agent_create(fx->w, &ad, &fx->a[1]));
    ad = guard_def(v3(-20, 0, 0), v3(-1, 0, 0));
    CHECK_OK(argus_agent_create(fx->w, &ad, &fx->a[2]));
    td = target_def(v3(0, 0, 5));
    CHECK_OK(argus_target_create(fx->w, &td, &fx->t[0]));
    td = target_def(v3(0, 0, -5));
    CHECK_OK(argus_target_create(fx->w, &td, &fx->t[1]));
    td = target_def(v3(14, 0, 0));
    CHECK_OK(argus_target_create(fx->w, &td, &fx->t[2]));
    od.position = v3(30, 0, 30);
    CHECK_OK(argus_occluder_create(fx->w, &od, &fx->o[0]));
    od.shape = ARGUS_SHAPE_KIND_SPHERE;
    od.position = v3(-30, 0, -30);
    CHECK_OK(argus_occluder_create(fx->w, &od, &fx->o[1]));
    sd.position = v3(0, 0, 3);
    sd.source = fx->t[0];
    CHECK_OK(argus_world_emit_sound(fx->w, &sd));
    fx_step(fx, 0.1f);
}

static void fx_free(Fx *fx) {
    argus_world_destroy(fx->w);
    fx->w = NULL;
}

typedef struct Snap {
    ArgusWorldCounts counts;
    double time;
    int pending; /* a two-phase step is waiting */
    uint8_t av[NA];
    ArgusAgentState st[NA];
    ArgusAgentDef ad[NA];
    uint32_t nm[NA];
    ArgusMemoryRecord mem[NA][MAXM];
    uint8_t tv[NT];
    ArgusTargetDef td[NT];
    uint8_t ov[NO];
    ArgusPerceptArray pa;
    ArgusPercept p[MAXE];
    ArgusBrainEventArray ba;
    ArgusBrainEvent b[MAXE];
    ArgusForgetEventArray fa;
    ArgusAwarenessEventArray wa;
    uint32_t att[3];
} Snap;

static Snap snap_before, snap_after;

static void snap_take(const Fx *fx, Snap *s) {
    ArgusWorld *w = fx->w;
    uint32_t i, n;
    memset(s, 0, sizeof *s);
    CHECK_OK(argus_world_get_counts(w, &s->counts));
    CHECK_OK(argus_world_get_time(w, &s->time));
    for (i = 0; i < NA; i++) {
        s->av[i] = argus_agent_is_valid(w, fx->a[i]);
        if (!s->av[i]) continue;
        CHECK_OK(argus_agent_get_state(w, fx->a[i], &s->st[i]));
        CHECK_OK(argus_agent_get_def(w, fx->a[i], &s->ad[i]));
        CHECK_OK(argus_agent_get_memory(w, fx->a[i], s->mem[i], MAXM, &s->nm[i]));
    }
    for (i = 0; i < NT; i++) {
        s->tv[i] = argus_target_is_valid(w, fx->t[i]);
        if (s->tv[i]) CHECK_OK(argus_target_get_def(w, fx->t[i], &s->td[i]));
    }
    for (i = 0; i < NO; i++) s->ov[i] = argus_occluder_is_valid(w, fx->o[i]);
    CHECK_OK(argus_world_get_percepts(w, &s->pa));
    n = s->pa.count < MAXE ? s->pa.count : MAXE;
    if (n) memcpy(s->p, s->pa.items, n * sizeof(ArgusPercept));
    CHECK_OK(argus_world_get_brain_events(w, &s->ba));
    n = s->ba.count < MAXE ? s->ba.count : MAXE;
    if (n) memcpy(s->b, s->ba.items, n * sizeof(ArgusBrainEvent));
    CHECK_OK(argus_world_get_forget_events(w, &s->fa));
    CHECK_OK(argus_world_get_awareness_events(w, &s->wa));
    CHECK_OK(argus_world_get_attitude(w, 0, 1, &s->att[0]));
    CHECK_OK(argus_world_get_attitude(w, 1, 0, &s->att[1]));
    CHECK_OK(argus_world_get_attitude(w, 0, 0, &s->att[2]));
    /* Probe for a pending step: re-setting an attitude to its value changes nothing. */
    s->pending = argus_world_set_attitude(w, 0, 0, s->att[2]) == ARGUS_RESULT_STEP_IN_PROGRESS;
}

#define SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static int same_state(const ArgusAgentState *a, const ArgusAgentState *b) {
    return SAME(a->position, b->position) && SAME(a->forward, b->forward) && SAME(a->eye, b->eye) &&
           SAME(a->move_target, b->move_target) && a->brain_state == b->brain_state &&
           SAME(a->focus, b->focus) && SAME(a->brain_timer, b->brain_timer) &&
           a->memory_count == b->memory_count && a->has_move_target == b->has_move_target;
}

static int same_record(const ArgusMemoryRecord *a, const ArgusMemoryRecord *b) {
    return SAME(a->target, b->target) && SAME(a->last_known_position, b->last_known_position) &&
           SAME(a->confidence, b->confidence) && SAME(a->last_percept_time, b->last_percept_time) &&
           SAME(a->visibility, b->visibility) && SAME(a->awareness, b->awareness) &&
           a->awareness_stage == b->awareness_stage && a->seen == b->seen;
}

static int same_target_def(const ArgusTargetDef *a, const ArgusTargetDef *b) {
    return SAME(a->position, b->position) && SAME(a->forward, b->forward) && a->team == b->team &&
           a->layers == b->layers && SAME(a->check_point_offsets, b->check_point_offsets) &&
           a->check_point_count == b->check_point_count && a->internal_cookie == b->internal_cookie &&
           a->enabled == b->enabled;
}

/* Field by field: the struct has padding before its user_data, which memcmp would read. */
static int same_brain_events(const ArgusBrainEvent *a, const ArgusBrainEvent *b, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n && i < MAXE; i++) {
        if (!SAME(a[i].agent, b[i].agent) || !SAME(a[i].target, b[i].target) || a[i].from != b[i].from ||
            a[i].to != b[i].to || !SAME(a[i].time, b[i].time) || a[i].agent_user_data != b[i].agent_user_data ||
            a[i].target_user_data != b[i].target_user_data) {
            return 0;
        }
    }
    return 1;
}

/* Names the first difference, or NULL. */
static const char *snap_diff(const Snap *a, const Snap *b) {
    uint32_t i, j;
    if (!SAME(a->counts, b->counts)) return "counts";
    if (!SAME(a->time, b->time)) return "time";
    if (a->pending != b->pending) return "pending step";
    for (i = 0; i < NA; i++) {
        if (a->av[i] != b->av[i]) return "agent validity";
        if (!a->av[i]) continue;
        if (!same_state(&a->st[i], &b->st[i])) return "agent state";
        if (!SAME(a->ad[i], b->ad[i])) return "agent def";
        if (a->nm[i] != b->nm[i]) return "memory count";
        for (j = 0; j < a->nm[i] && j < MAXM; j++) {
            if (!same_record(&a->mem[i][j], &b->mem[i][j])) return "memory record";
        }
    }
    for (i = 0; i < NT; i++) {
        if (a->tv[i] != b->tv[i]) return "target validity";
        if (a->tv[i] && !same_target_def(&a->td[i], &b->td[i])) return "target def";
    }
    for (i = 0; i < NO; i++) {
        if (a->ov[i] != b->ov[i]) return "occluder validity";
    }
    if (a->pa.items != b->pa.items || a->pa.count != b->pa.count || !SAME(a->p, b->p)) return "percepts";
    if (a->ba.items != b->ba.items || a->ba.count != b->ba.count || !same_brain_events(a->b, b->b, a->ba.count)) {
        return "brain events";
    }
    if (a->fa.items != b->fa.items || a->fa.count != b->fa.count) return "forget events";
    if (a->wa.items != b->wa.items || a->wa.count != b->wa.count) return "awareness events";
    if (!SAME(a->att, b->att)) return "attitudes";
    return NULL;
}

static void report_unchanged(const char *expr, const char *file, int line) {
    const char *diff = snap_diff(&snap_before, &snap_after);
    if (diff) {
        check_failed++;
        fprintf(stderr, "%s:%d: %s changed the world (%s)\n", file, line, expr, diff);
    } else {
        check_passed++;
    }
}

/* `expr` on fx's world returns `code`, explains itself, and changes nothing. */
#define REFUSED(fx, expr, code)                                                                  \
    do {                                                                                         \
        snap_take((fx), &snap_before);                                                           \
        CHECK_RESULT((expr), (code));                                                            \
        if (argus_world_last_error((fx)->w)[0] == '\0') {                                         \
            check_failed++;                                                                      \
            fprintf(stderr, "%s:%d: empty last_error after %s\n", __FILE__, __LINE__, #expr);    \
        }                                                                                        \
        snap_take((fx), &snap_after);                                                            \
        report_unchanged(#expr, __FILE__, __LINE__);                                             \
    } while (0)

/* `expr` names no world (NULL): INVALID_ARGUMENT, and fx's world neither changes nor gets an error. */
#define REFUSED_NO_WORLD(fx, expr)                                                               \
    do {                                                                                         \
        snap_take((fx), &snap_before);                                                           \
        CHECK_RESULT((expr), ARGUS_RESULT_INVALID_ARGUMENT);                                     \
        CHECK(argus_world_last_error((fx)->w)[0] == '\0');                                       \
        snap_take((fx), &snap_after);                                                            \
        report_unchanged(#expr, __FILE__, __LINE__);                                             \
    } while (0)

/* `expr` succeeds without changing anything. */
#define HARMLESS(fx, expr)                                                                       \
    do {                                                                                         \
        snap_take((fx), &snap_before);                                                           \
        CHECK_OK(expr);                                                                          \
        snap_take((fx), &snap_after);                                                            \
        report_unchanged(#expr, __FILE__, __LINE__);                                             \
    } while (0)

#define ID_EQ(a, b) ((a).index == (b).index && (a).generation == (b).generation)

static void poke_float(void *base, size_t offset, float value) {
    memcpy((char *)base + offset, &value, sizeof value);
}

static const float NON_FINITE[3] = {NAN, INFINITY, -INFINITY};

/* ---- fork isolation and guard pages --------------------------------------------------------- */

static int under_valgrind(void) {
    const char *v = getenv("ARGUS_VALGRIND");
    return v && strcmp(v, "1") == 0;
}

static void isolated(const char *name, void (*body)(void)) {
    pid_t pid;
    int status = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        check_passed = 0;
        check_failed = 0;
        body();
        fflush(stdout);
        fflush(stderr);
        _exit(check_failed == 0 ? 0 : 1);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        check_failed++;
        fprintf(stderr, "isolated case '%s': fork/wait failed\n", name);
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        check_passed++;
    } else if (WIFSIGNALED(status)) {
        check_failed++;
        fprintf(stderr, "isolated case '%s' crashed with signal %d\n", name, WTERMSIG(status));
    } else {
        check_failed++;
        fprintf(stderr, "isolated case '%s' failed (exit status %d)\n", name, WEXITSTATUS(status));
    }
}

/* `bytes` readable and writable bytes followed immediately by an inaccessible page. */
static void *guarded(size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t span = (bytes + page - 1) / page * page;
    char *base = (char *)mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == (char *)MAP_FAILED) {
        fprintf(stderr, "mmap failed\n");
        exit(2);
    }
    if (mprotect(base + span, page, PROT_NONE) != 0) {
        fprintf(stderr, "mprotect failed\n");
        exit(2);
    }
    memset(base, 0, span);
    return base + span - bytes;
}

/* ---- names and versions ------------------------------------------------------------------- */

static void names_and_versions(void) {
    static const char *const names[] = {
        "ARGUS_RESULT_OK",
        "ARGUS_RESULT_INVALID_ARGUMENT",
        "ARGUS_RESULT_INVALID_ID",
        "ARGUS_RESULT_BUFFER_TOO_SMALL",
        "ARGUS_RESULT_STEP_IN_PROGRESS",
        "ARGUS_RESULT_NO_STEP_IN_PROGRESS",
        "ARGUS_RESULT_NO_RAY_BACKEND",
        "ARGUS_RESULT_BAD_SNAPSHOT",
        "ARGUS_RESULT_DEF_NOT_INITIALIZED",
        "ARGUS_RESULT_PANIC",
        "ARGUS_RESULT_WORLD_POISONED",
    };
    static const uint32_t codes[] = {
        ARGUS_RESULT_OK, ARGUS_RESULT_INVALID_ARGUMENT, ARGUS_RESULT_INVALID_ID,
        ARGUS_RESULT_BUFFER_TOO_SMALL, ARGUS_RESULT_STEP_IN_PROGRESS, ARGUS_RESULT_NO_STEP_IN_PROGRESS,
        ARGUS_RESULT_NO_RAY_BACKEND, ARGUS_RESULT_BAD_SNAPSHOT, ARGUS_RESULT_DEF_NOT_INITIALIZED,
        ARGUS_RESULT_PANIC, ARGUS_RESULT_WORLD_POISONED,
    };
    char version[32];
    uint32_t i;
    for (i = 0; i < 11; i++) {
        CHECK(codes[i] == i); /* values are fixed forever */
        CHECK(strcmp(argus_result_name(i), names[i]) == 0);
    }
    CHECK(strcmp(argus_result_name(11), "ARGUS_RESULT_REENTRANT") == 0);
    CHECK(strcmp(argus_result_name(12), "ARGUS_RESULT_BUSY") == 0);
    CHECK(strcmp(argus_result_name(13), "ARGUS_RESULT_OUT_OF_MEMORY") == 0);
    CHECK(strcmp(argus_result_name(14), "ARGUS_RESULT_CALLBACK_FAILED") == 0);
    CHECK(ARGUS_RESULT_CALLBACK_FAILED == 14);
    CHECK(strcmp(argus_result_name(15), "ARGUS_RESULT_BAD_RECORDING") == 0);
    CHECK(ARGUS_RESULT_BAD_RECORDING == 15);
    CHECK(strcmp(argus_result_name(16), "ARGUS_RESULT_REPLAY_MISMATCH") == 0);
    CHECK(ARGUS_RESULT_REPLAY_MISMATCH == 16);
    CHECK(strcmp(argus_result_name(17), "ARGUS_RESULT_WRITE_FAILED") == 0);
    CHECK(ARGUS_RESULT_WRITE_FAILED == 17);
    CHECK(strcmp(argus_result_name(18), "ARGUS_RESULT_UNKNOWN") == 0);
    CHECK(strcmp(argus_result_name(0x7FFFFFFFu), "ARGUS_RESULT_UNKNOWN") == 0);
    CHECK(strcmp(argus_result_name(0xFFFFFFFFu), "ARGUS_RESULT_UNKNOWN") == 0);
    CHECK(argus_abi_version() == ARGUS_ABI_VERSION);
    CHECK(argus_version() == ((ARGUS_VERSION_MAJOR << 16) | (ARGUS_VERSION_MINOR << 8) | ARGUS_VERSION_PATCH));
    snprintf(version, sizeof version, "%d.%d.%d", ARGUS_VERSION_MAJOR, ARGUS_VERSION_MINOR, ARGUS_VERSION_PATCH);
    CHECK(strcmp(argus_version_string(), version) == 0);
    CHECK(strcmp(argus_world_last_error(NULL), "") == 0);
}

/* ---- NULL world ----------------------------------------------------------------------------- */

static void null_world(void) {
    Fx fx;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusSoundDef sd = argus_default_sound_def();
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusWorldCounts counts;
    ArgusAgentState state;
    ArgusSightResult sight;
    ArgusMemoryRecord records[4];
    ArgusTargetRef seen[4];
    ArgusPerceptArray pa;
    ArgusBrainEventArray ba;
    ArgusForgetEventArray fa;
    ArgusAwarenessEventArray wa;
    ArgusRayArray rays;
    ArgusDebugDraw dd;
    ArgusAgentId aid = {77, 0, 77};
    ArgusTargetId tid = {77, 0, 77};
    ArgusOccluderId oid = {77, 0, 77};
    ArgusVec3 pos = v3(1, 0, 1), fwd = v3(0, 0, 1);
    ArgusRayHit hit = {0, 0.0f};
    uint8_t bytes[16] = {0};
    double time = -7.0;
    uint32_t n = 777, att = 777, live;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    live = argus_live_world_count();
    argus_world_destroy(NULL); /* a no-op */
    CHECK(argus_live_world_count() == live);
    CHECK(strcmp(argus_world_last_error(NULL), "") == 0);
    CHECK(argus_agent_is_valid(NULL, fx.a[0]) == 0);
    CHECK(argus_target_is_valid(NULL, fx.t[0]) == 0);
    CHECK(argus_occluder_is_valid(NULL, fx.o[0]) == 0);

    REFUSED_NO_WORLD(&fx, argus_world_get_counts(NULL, &counts));
    REFUSED_NO_WORLD(&fx, argus_world_get_time(NULL, &time));
    REFUSED_NO_WORLD(&fx, argus_world_set_ray_callback(NULL, NULL, NULL));
    REFUSED_NO_WORLD(&fx, argus_world_step(NULL, 0.1f));
    REFUSED_NO_WORLD(&fx, argus_world_step_begin(NULL, 0.1f, &rays));
    REFUSED_NO_WORLD(&fx, argus_world_step_finish(NULL, &hit, 1));
    REFUSED_NO_WORLD(&fx, argus_world_step_cancel(NULL));
    REFUSED_NO_WORLD(&fx, argus_world_set_attitude(NULL, 0, 1, ARGUS_ATTITUDE_NEUTRAL));
    REFUSED_NO_WORLD(&fx, argus_world_get_attitude(NULL, 0, 1, &att));
    REFUSED_NO_WORLD(&fx, argus_testing_trigger_panic(NULL));
    REFUSED_NO_WORLD(&fx, argus_world_emit_sound(NULL, &sd));
    REFUSED_NO_WORLD(&fx, argus_world_get_percepts(NULL, &pa));
    REFUSED_NO_WORLD(&fx, argus_world_get_brain_events(NULL, &ba));
    REFUSED_NO_WORLD(&fx, argus_world_get_forget_events(NULL, &fa));
    REFUSED_NO_WORLD(&fx, argus_world_get_awareness_events(NULL, &wa));
    REFUSED_NO_WORLD(&fx, argus_world_debug_draw(NULL, &opts, &dd));
    REFUSED_NO_WORLD(&fx, argus_world_save(NULL, bytes, sizeof bytes, &n));
    REFUSED_NO_WORLD(&fx, argus_world_load(NULL, bytes, sizeof bytes));
    REFUSED_NO_WORLD(&fx, argus_agent_create(NULL, &ad, &aid));
    REFUSED_NO_WORLD(&fx, argus_agent_destroy(NULL, fx.a[0]));
    REFUSED_NO_WORLD(&fx, argus_agent_set_def(NULL, fx.a[0], &ad));
    REFUSED_NO_WORLD(&fx, argus_agent_get_def(NULL, fx.a[0], &ad));
    REFUSED_NO_WORLD(&fx, argus_agent_set_sight(NULL, fx.a[0], &ad.sight));
    REFUSED_NO_WORLD(&fx, argus_agent_get_sight(NULL, fx.a[0], &ad.sight));
    REFUSED_NO_WORLD(&fx, argus_agent_set_hearing(NULL, fx.a[0], &ad.hearing));
    REFUSED_NO_WORLD(&fx, argus_agent_get_hearing(NULL, fx.a[0], &ad.hearing));
    REFUSED_NO_WORLD(&fx, argus_agent_set_memory_settings(NULL, fx.a[0], &ad.memory));
    REFUSED_NO_WORLD(&fx, argus_agent_get_memory_settings(NULL, fx.a[0], &ad.memory));
    REFUSED_NO_WORLD(&fx, argus_agent_set_brain(NULL, fx.a[0], &ad.brain));
    REFUSED_NO_WORLD(&fx, argus_agent_get_brain(NULL, fx.a[0], &ad.brain));
    REFUSED_NO_WORLD(&fx, argus_agent_set_awareness(NULL, fx.a[0], &ad.awareness));
    REFUSED_NO_WORLD(&fx, argus_agent_get_awareness(NULL, fx.a[0], &ad.awareness));
    REFUSED_NO_WORLD(&fx, argus_agent_set_pose(NULL, fx.a[0], pos, fwd));
    REFUSED_NO_WORLD(&fx, argus_agent_set_poses(NULL, fx.a, &pos, &fwd, 1));
    REFUSED_NO_WORLD(&fx, argus_agent_get_state(NULL, fx.a[0], &state));
    REFUSED_NO_WORLD(&fx, argus_agent_report_arrived(NULL, fx.a[0]));
    REFUSED_NO_WORLD(&fx, argus_agent_get_memory(NULL, fx.a[0], records, 4, &n));
    REFUSED_NO_WORLD(&fx, argus_agent_remember(NULL, fx.a[0], fx.t[0], pos, 0.5f));
    REFUSED_NO_WORLD(&fx, argus_agent_forget(NULL, fx.a[0], fx.t[0]));
    REFUSED_NO_WORLD(&fx, argus_agent_can_see(NULL, fx.a[0], fx.t[0], &sight));
    REFUSED_NO_WORLD(&fx, argus_agent_get_visible_targets(NULL, fx.a[0], seen, 4, &n));
    REFUSED_NO_WORLD(&fx, argus_target_create(NULL, &td, &tid));
    REFUSED_NO_WORLD(&fx, argus_target_destroy(NULL, fx.t[0]));
    REFUSED_NO_WORLD(&fx, argus_target_set_def(NULL, fx.t[0], &td));
    REFUSED_NO_WORLD(&fx, argus_target_get_def(NULL, fx.t[0], &td));
    REFUSED_NO_WORLD(&fx, argus_target_set_pose(NULL, fx.t[0], pos, fwd));
    REFUSED_NO_WORLD(&fx, argus_target_set_poses(NULL, fx.t, &pos, &fwd, 1));
    REFUSED_NO_WORLD(&fx, argus_target_set_enabled(NULL, fx.t[0], 0));
    REFUSED_NO_WORLD(&fx, argus_occluder_create(NULL, &od, &oid));
    REFUSED_NO_WORLD(&fx, argus_occluder_destroy(NULL, fx.o[0]));
    REFUSED_NO_WORLD(&fx, argus_occluder_set_pose(NULL, fx.o[0], pos, IDENTITY));
    REFUSED_NO_WORLD(&fx, argus_occluder_set_layers(NULL, fx.o[0], 2));
    /* Out-parameters were never written. */
    CHECK(time == -7.0 && n == 777 && att == 777);
    CHECK(aid.index == 77 && tid.index == 77 && oid.index == 77);
    CHECK(ad.internal_cookie == ARGUS_DEF_COOKIE && td.internal_cookie == ARGUS_DEF_COOKIE);
    fx_free(&fx);
}

/* ---- NULL pointer arguments ------------------------------------------------------------------ */

static void null_pointers(void) {
    Fx fx, en;
    ArgusWorldDef wd = argus_default_world_def();
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusWorld *sentinel = (ArgusWorld *)&fx; /* never dereferenced */
    ArgusWorld *out_world = sentinel;
    ArgusAgentId aid = {77, 0, 77};
    ArgusTargetId tid = {77, 0, 77};
    ArgusTargetRef seen[NT];
    ArgusOccluderId oid = {77, 0, 77};
    ArgusMemoryRecord records[MAXM];
    ArgusDebugDraw dd;
    ArgusRayArray rays;
    ArgusVec3 pos = v3(1, 0, 1), fwd = v3(0, 0, 1);
    ArgusVec3 tri[3];
    uint32_t idx[3] = {0, 1, 2};
    uint32_t n = 777, live;
    uint8_t snapshot[8];

    live = argus_live_world_count();
    CHECK_RESULT(argus_world_create(NULL, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(out_world == sentinel);
    CHECK_RESULT(argus_world_create(&wd, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(argus_live_world_count() == live);

    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    REFUSED(&fx, argus_world_get_counts(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_time(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_step_begin(fx.w, 0.1f, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_attitude(fx.w, 0, 1, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_emit_sound(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_percepts(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_brain_events(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_forget_events(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_awareness_events(fx.w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_debug_draw(fx.w, NULL, &dd), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_debug_draw(fx.w, &opts, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_save(fx.w, snapshot, sizeof snapshot, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_save(fx.w, NULL, 0xFFFFFFFFu, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_load(fx.w, NULL, 64), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_create(fx.w, NULL, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_create(fx.w, &ad, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_def(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_def(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_sight(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_sight(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_hearing(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_hearing(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_memory_settings(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_memory_settings(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_brain(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_brain(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_awareness(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_awareness(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_poses(fx.w, NULL, &pos, &fwd, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_poses(fx.w, fx.a, NULL, &fwd, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_state(fx.w, fx.a[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_memory(fx.w, fx.a[0], records, MAXM, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    /* a0 remembers t0: a NULL buffer that claims room for it is refused. */
    REFUSED(&fx, argus_agent_get_memory(fx.w, fx.a[0], NULL, MAXM, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_can_see(fx.w, fx.a[0], fx.t[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    /* a0 sees t0. */
    REFUSED(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], NULL, NT, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], seen, NT, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_create(fx.w, NULL, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_create(fx.w, &td, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_get_def(fx.w, fx.t[0], NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_poses(fx.w, NULL, &pos, &fwd, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_poses(fx.w, fx.t, NULL, &fwd, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_occluder_create(fx.w, NULL, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_occluder_create(fx.w, &od, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    tri[0] = v3(0, 0, 0);
    tri[1] = v3(1, 0, 0);
    tri[2] = v3(0, 1, 0);
    od.shape = ARGUS_SHAPE_KIND_MESH;
    od.vertex_count = 3;
    od.index_count = 3;
    od.vertices = NULL;
    od.indices = idx;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.vertices = tri;
    od.indices = NULL;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    /* Counts of zero make NULL arrays harmless. */
    HARMLESS(&fx, argus_agent_set_poses(fx.w, NULL, NULL, NULL, 0));
    HARMLESS(&fx, argus_target_set_poses(fx.w, NULL, NULL, NULL, 0));
    CHECK(aid.index == 77 && tid.index == 77 && oid.index == 77 && n == 777);

    /* The two-phase step: NULL hits with a non-zero count, while rays are pending. */
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
    CHECK(rays.count == 2);
    REFUSED(&en, argus_world_step_finish(en.w, NULL, rays.count), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_step_cancel(en.w));
    fx_free(&en);
    fx_free(&fx);
}

/* ---- stale and forged ids -------------------------------------------------------------------- */

static void bad_agent_ids(Fx *fx, ArgusAgentId bad) {
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusAgentDef out_def;
    ArgusAgentState state;
    ArgusSightResult sight;
    ArgusMemoryRecord records[MAXM];
    ArgusTargetRef seen[NT];
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusDebugDraw dd;
    ArgusAgentId ids[2];
    ArgusVec3 pos[2], fwd[2];
    uint32_t n = 777;
    ids[0] = fx->a[0];
    ids[1] = bad;
    pos[0] = pos[1] = v3(1, 0, 1);
    fwd[0] = fwd[1] = v3(1, 0, 0);
    memset(&out_def, 0xAB, sizeof out_def);
    CHECK(argus_agent_is_valid(fx->w, bad) == 0);
    REFUSED(fx, argus_agent_destroy(fx->w, bad), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_def(fx->w, bad, &ad), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_def(fx->w, bad, &out_def), ARGUS_RESULT_INVALID_ID);
    CHECK(out_def.internal_cookie == 0xABABABABu);
    REFUSED(fx, argus_agent_set_sight(fx->w, bad, &ad.sight), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_hearing(fx->w, bad, &ad.hearing), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_memory_settings(fx->w, bad, &ad.memory), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_brain(fx->w, bad, &ad.brain), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_awareness(fx->w, bad, &ad.awareness), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_sight(fx->w, bad, &out_def.sight), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_hearing(fx->w, bad, &out_def.hearing), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_memory_settings(fx->w, bad, &out_def.memory), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_brain(fx->w, bad, &out_def.brain), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_awareness(fx->w, bad, &out_def.awareness), ARGUS_RESULT_INVALID_ID);
    {
        ArgusAgentDef blank; /* refused getters wrote nothing */
        memset(&blank, 0xAB, sizeof blank);
        CHECK(memcmp(&out_def, &blank, sizeof blank) == 0);
    }
    REFUSED(fx, argus_agent_set_pose(fx->w, bad, pos[0], fwd[0]), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_poses(fx->w, &bad, pos, fwd, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_set_poses(fx->w, ids, pos, fwd, 2), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_state(fx->w, bad, &state), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_report_arrived(fx->w, bad), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_memory(fx->w, bad, records, MAXM, &n), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_remember(fx->w, bad, fx->t[0], pos[0], 0.5f), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_forget(fx->w, bad, fx->t[0]), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_can_see(fx->w, bad, fx->t[0], &sight), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_get_visible_targets(fx->w, bad, seen, NT, &n), ARGUS_RESULT_INVALID_ID);
    if (bad.index != 0 || bad.world != 0 || bad.generation != 0) { /* all zero is null: "every agent"; nothing else is */
        opts.agent = bad;
        REFUSED(fx, argus_world_debug_draw(fx->w, &opts, &dd), ARGUS_RESULT_INVALID_ID);
    }
    CHECK(n == 777);
}

static void bad_target_ids(Fx *fx, ArgusTargetId bad) {
    ArgusTargetDef td = argus_default_target_def();
    ArgusTargetDef out_def;
    ArgusSoundDef sd = argus_default_sound_def();
    ArgusSightResult sight;
    ArgusTargetId ids[2];
    ArgusVec3 pos[2], fwd[2];
    ids[0] = fx->t[0];
    ids[1] = bad;
    pos[0] = pos[1] = v3(1, 0, 1);
    fwd[0] = fwd[1] = v3(1, 0, 0);
    memset(&out_def, 0xAB, sizeof out_def);
    CHECK(argus_target_is_valid(fx->w, bad) == 0);
    REFUSED(fx, argus_target_destroy(fx->w, bad), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_target_set_def(fx->w, bad, &td), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_target_get_def(fx->w, bad, &out_def), ARGUS_RESULT_INVALID_ID);
    CHECK(out_def.internal_cookie == 0xABABABABu);
    REFUSED(fx, argus_target_set_pose(fx->w, bad, pos[0], fwd[0]), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_target_set_poses(fx->w, &bad, pos, fwd, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_target_set_poses(fx->w, ids, pos, fwd, 2), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_target_set_enabled(fx->w, bad, 0), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_remember(fx->w, fx->a[0], bad, pos[0], 0.5f), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_agent_can_see(fx->w, fx->a[0], bad, &sight), ARGUS_RESULT_INVALID_ID);
    /* Documented: forgetting an unknown target (a generation-0 id of this world included) is a
     * harmless no-op; another world's id is not unknown but foreign, and refused like everywhere
     * else. */
    if (bad.world == 0 || bad.world == argus_world_tag(fx->w)) {
        HARMLESS(fx, argus_agent_forget(fx->w, fx->a[0], bad));
    } else {
        REFUSED(fx, argus_agent_forget(fx->w, fx->a[0], bad), ARGUS_RESULT_INVALID_ID);
    }
    if (bad.index != 0 || bad.world != 0 || bad.generation != 0) { /* all zero is null: an anonymous sound */
        sd.source = bad;
        REFUSED(fx, argus_world_emit_sound(fx->w, &sd), ARGUS_RESULT_INVALID_ID);
    }
}

static void bad_occluder_ids(Fx *fx, ArgusOccluderId bad) {
    CHECK(argus_occluder_is_valid(fx->w, bad) == 0);
    REFUSED(fx, argus_occluder_destroy(fx->w, bad), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_occluder_set_pose(fx->w, bad, v3(1, 2, 3), IDENTITY), ARGUS_RESULT_INVALID_ID);
    REFUSED(fx, argus_occluder_set_layers(fx->w, bad, 2), ARGUS_RESULT_INVALID_ID);
}

static void stale_and_forged_ids(void) {
    Fx fx;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusAgentId stale_a, fresh_a, forged_a[6];
    ArgusTargetId stale_t, fresh_t, forged_t[6];
    ArgusOccluderId stale_o, fresh_o, forged_o[6];
    uint16_t tag;
    int i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    /* Stale: created, destroyed; then the slot is reused by something new. */
    CHECK_OK(argus_agent_create(fx.w, &ad, &stale_a));
    CHECK_OK(argus_target_create(fx.w, &td, &stale_t));
    CHECK_OK(argus_occluder_create(fx.w, &od, &stale_o));
    CHECK_OK(argus_agent_destroy(fx.w, stale_a));
    CHECK_OK(argus_target_destroy(fx.w, stale_t));
    CHECK_OK(argus_occluder_destroy(fx.w, stale_o));
    bad_agent_ids(&fx, stale_a);
    bad_target_ids(&fx, stale_t);
    bad_occluder_ids(&fx, stale_o);
    /* Double destroy. */
    REFUSED(&fx, argus_agent_destroy(fx.w, stale_a), ARGUS_RESULT_INVALID_ID);
    REFUSED(&fx, argus_target_destroy(fx.w, stale_t), ARGUS_RESULT_INVALID_ID);
    REFUSED(&fx, argus_occluder_destroy(fx.w, stale_o), ARGUS_RESULT_INVALID_ID);
    CHECK_OK(argus_agent_create(fx.w, &ad, &fresh_a));
    CHECK_OK(argus_target_create(fx.w, &td, &fresh_t));
    CHECK_OK(argus_occluder_create(fx.w, &od, &fresh_o));
    CHECK(fresh_a.index == stale_a.index && fresh_a.generation != stale_a.generation);
    CHECK(fresh_t.index == stale_t.index && fresh_t.generation != stale_t.generation);
    CHECK(fresh_o.index == stale_o.index && fresh_o.generation != stale_o.generation);
    CHECK(argus_agent_is_valid(fx.w, fresh_a) && argus_target_is_valid(fx.w, fresh_t));
    CHECK(argus_occluder_is_valid(fx.w, fresh_o));
    bad_agent_ids(&fx, stale_a); /* still stale although its slot is live again */
    bad_target_ids(&fx, stale_t);
    bad_occluder_ids(&fx, stale_o);

    /* Forged: null, wrong generation, generation 0, index out of range, all ones, and a live
     * thing's exact index and generation stamped with another world's tag. */
    tag = argus_world_tag(fx.w);
    CHECK(tag != 0 && fx.a[0].world == tag && fx.t[0].world == tag && fx.o[0].world == tag);
    forged_a[0].index = 0, forged_a[0].generation = 0;
    forged_a[1].index = fx.a[1].index, forged_a[1].generation = (uint16_t)(fx.a[1].generation + 1);
    forged_a[2].index = fx.a[1].index, forged_a[2].generation = 0;
    forged_a[3].index = 1000, forged_a[3].generation = 1;
    forged_a[4].index = 0xFFFFFFFFu, forged_a[4].generation = 0xFFFFu;
    forged_a[5].index = fx.a[1].index, forged_a[5].generation = fx.a[1].generation;
    for (i = 0; i < 6; i++) {
        forged_a[i].world = i == 0 ? 0 : i == 5 ? (uint16_t)(tag + 1) : i == 4 ? 0xFFFFu : tag;
        forged_t[i].index = i == 1 || i == 2 || i == 5 ? fx.t[1].index : forged_a[i].index;
        forged_t[i].generation = i == 1 ? (uint16_t)(fx.t[1].generation + 1) : i == 5 ? fx.t[1].generation : forged_a[i].generation;
        forged_t[i].world = forged_a[i].world;
        forged_o[i].index = i == 1 || i == 2 || i == 5 ? fx.o[1].index : forged_a[i].index;
        forged_o[i].generation = i == 1 ? (uint16_t)(fx.o[1].generation + 1) : i == 5 ? fx.o[1].generation : forged_a[i].generation;
        forged_o[i].world = forged_a[i].world;
        bad_agent_ids(&fx, forged_a[i]);
        bad_target_ids(&fx, forged_t[i]);
        bad_occluder_ids(&fx, forged_o[i]);
    }
    fx_free(&fx);
}

/* ---- NaN and infinities in every float field ----------------------------------------------- */

typedef struct Field {
    const char *name;
    size_t offset;
} Field;

#define AF(f) {#f, offsetof(ArgusAgentDef, f)}
static const Field AGENT_FLOATS[] = {
    AF(position.x), AF(position.y), AF(position.z), AF(forward.x), AF(forward.y), AF(forward.z),
    AF(sight.eye_offset.x), AF(sight.eye_offset.y), AF(sight.eye_offset.z), AF(sight.view_radius), AF(sight.view_angle),
    AF(sight.lose_sight_radius), AF(sight.peripheral_radius), AF(sight.peripheral_angle), AF(sight.rate_hz),
    AF(hearing.sensitivity), AF(memory.decay_per_second), AF(memory.forget_threshold),
    AF(brain.search_duration), AF(brain.investigate_timeout), AF(awareness.rise_per_second),
    AF(awareness.fall_per_second), AF(awareness.far_factor), AF(awareness.edge_factor),
    AF(awareness.suspicious_threshold), AF(awareness.alert_threshold), AF(awareness.aware_threshold),
};

typedef struct OccField {
    const char *name;
    uint32_t shape;
    size_t offset;
} OccField;

#define OF(shape, f) {#shape " " #f, shape, offsetof(ArgusOccluderDef, f)}
static const OccField OCCLUDER_FLOATS[] = {
    OF(ARGUS_SHAPE_KIND_BOX, position.x), OF(ARGUS_SHAPE_KIND_BOX, position.y), OF(ARGUS_SHAPE_KIND_BOX, position.z),
    OF(ARGUS_SHAPE_KIND_BOX, rotation.x), OF(ARGUS_SHAPE_KIND_BOX, rotation.y), OF(ARGUS_SHAPE_KIND_BOX, rotation.z),
    OF(ARGUS_SHAPE_KIND_BOX, rotation.w), OF(ARGUS_SHAPE_KIND_BOX, half_extents.x),
    OF(ARGUS_SHAPE_KIND_BOX, half_extents.y), OF(ARGUS_SHAPE_KIND_BOX, half_extents.z),
    OF(ARGUS_SHAPE_KIND_SPHERE, radius), OF(ARGUS_SHAPE_KIND_SPHERE, position.x),
    OF(ARGUS_SHAPE_KIND_CAPSULE, radius), OF(ARGUS_SHAPE_KIND_CAPSULE, half_height),
    OF(ARGUS_SHAPE_KIND_CAPSULE, rotation.w),
};

static void non_finite(void) {
    Fx fx, en;
    ArgusWorldDef wd;
    ArgusWorld *out_world;
    ArgusAgentDef ad;
    ArgusTargetDef td;
    ArgusOccluderDef od;
    ArgusSoundDef sd;
    ArgusAgentId aid;
    ArgusTargetId tid;
    ArgusOccluderId oid;
    ArgusRayArray rays;
    ArgusRayHit hits[MAXE];
    ArgusVec3 tri[3];
    uint32_t idx[3] = {0, 1, 2};
    size_t f, k, c;
    uint32_t live;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    live = argus_live_world_count();
    for (k = 0; k < 3; k++) {
        float bad = NON_FINITE[k];
        /* World def. */
        wd = argus_default_world_def();
        wd.sound_occlusion = bad;
        out_world = NULL;
        CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
        wd = argus_default_world_def();
        wd.broadphase_cell_size = bad;
        CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(out_world == NULL && argus_live_world_count() == live);
        /* Agent def: create and set_def. */
        for (f = 0; f < sizeof AGENT_FLOATS / sizeof AGENT_FLOATS[0]; f++) {
            ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
            poke_float(&ad, AGENT_FLOATS[f].offset, bad);
            aid.index = 77;
            REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_agent_set_def(fx.w, fx.a[0], &ad), ARGUS_RESULT_INVALID_ARGUMENT);
            if (aid.index != 77) fprintf(stderr, "agent def field %s\n", AGENT_FLOATS[f].name);
            CHECK(aid.index == 77);
        }
        /* Target def: position, forward and every used check point coordinate. */
        for (f = 0; f < 6 + 3 * ARGUS_MAX_CHECK_POINTS; f++) {
            td = target_def(v3(1, 0, 1));
            td.check_point_count = ARGUS_MAX_CHECK_POINTS;
            if (f < 3) {
                poke_float(&td, offsetof(ArgusTargetDef, position) + 4 * f, bad);
            } else if (f < 6) {
                poke_float(&td, offsetof(ArgusTargetDef, forward) + 4 * (f - 3), bad);
            } else {
                poke_float(&td, offsetof(ArgusTargetDef, check_point_offsets) + 4 * (f - 6), bad);
            }
            REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], &td), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        /* Occluder def: the fields each shape reads, and a mesh vertex. */
        for (f = 0; f < sizeof OCCLUDER_FLOATS / sizeof OCCLUDER_FLOATS[0]; f++) {
            od = argus_default_occluder_def();
            od.shape = OCCLUDER_FLOATS[f].shape;
            poke_float(&od, OCCLUDER_FLOATS[f].offset, bad);
            REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        for (c = 0; c < 9; c++) {
            tri[0] = v3(0, 0, 0);
            tri[1] = v3(1, 0, 0);
            tri[2] = v3(0, 1, 0);
            poke_float(tri, 4 * c, bad);
            od = argus_default_occluder_def();
            od.shape = ARGUS_SHAPE_KIND_MESH;
            od.vertices = tri;
            od.vertex_count = 3;
            od.indices = idx;
            od.index_count = 3;
            REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        /* Sound def. */
        for (c = 0; c < 4; c++) {
            sd = argus_default_sound_def();
            poke_float(&sd, c * 4, bad); /* position.x, .y, .z, loudness */
            REFUSED(&fx, argus_world_emit_sound(fx.w, &sd), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        /* Poses. */
        for (c = 0; c < 3; c++) {
            ArgusVec3 pos = v3(1, 0, 1), fwd = v3(0, 0, 1);
            ArgusQuat q = IDENTITY;
            poke_float(&pos, 4 * c, bad);
            REFUSED(&fx, argus_agent_set_pose(fx.w, fx.a[0], pos, v3(0, 0, 1)), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_target_set_pose(fx.w, fx.t[0], pos, v3(0, 0, 1)), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_occluder_set_pose(fx.w, fx.o[0], pos, IDENTITY), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_agent_remember(fx.w, fx.a[0], fx.t[1], pos, 0.5f), ARGUS_RESULT_INVALID_ARGUMENT);
            poke_float(&fwd, 4 * c, bad);
            REFUSED(&fx, argus_agent_set_pose(fx.w, fx.a[0], v3(1, 0, 1), fwd), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_target_set_pose(fx.w, fx.t[0], v3(1, 0, 1), fwd), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_agent_set_poses(fx.w, fx.a, &pos, NULL, 1), ARGUS_RESULT_INVALID_ARGUMENT);
            REFUSED(&fx, argus_target_set_poses(fx.w, fx.t, &pos, NULL, 1), ARGUS_RESULT_INVALID_ARGUMENT);
            poke_float(&q, 4 * c, bad);
            REFUSED(&fx, argus_occluder_set_pose(fx.w, fx.o[0], v3(1, 0, 1), q), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        {
            ArgusQuat q = IDENTITY;
            q.w = bad;
            REFUSED(&fx, argus_occluder_set_pose(fx.w, fx.o[0], v3(1, 0, 1), q), ARGUS_RESULT_INVALID_ARGUMENT);
        }
        REFUSED(&fx, argus_agent_remember(fx.w, fx.a[0], fx.t[1], v3(1, 0, 1), bad), ARGUS_RESULT_INVALID_ARGUMENT);
        /* dt. */
        REFUSED(&fx, argus_world_step(fx.w, bad), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_world_step_begin(fx.w, bad, &rays), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    REFUSED(&fx, argus_world_step(fx.w, -0.001f), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_step_begin(fx.w, -1.0f, &rays), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Ray hits of a two-phase step: a hit needs a finite distance >= 0; the step stays pending. */
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
    CHECK(rays.count == 2);
    memset(hits, 0, sizeof hits);
    for (k = 0; k < 4; k++) {
        hits[1].hit = 1;
        hits[1].distance = k < 3 ? NON_FINITE[k] : -0.5f;
        REFUSED(&en, argus_world_step_finish(en.w, hits, rays.count), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    hits[1].hit = 0; /* a miss's distance is ignored */
    hits[1].distance = NAN;
    CHECK_OK(argus_world_step_finish(en.w, hits, rays.count));
    fx_free(&en);
    fx_free(&fx);
}

/* ---- ranges, zero directions, enums ---------------------------------------------------------- */

typedef struct BadValue {
    const char *name;
    size_t offset;
    float value;
} BadValue;

#define AB(f, v) {#f " = " #v, offsetof(ArgusAgentDef, f), v}
static const BadValue AGENT_BAD[] = {
    AB(sight.view_radius, -1.0f), AB(sight.lose_sight_radius, -1.0f), AB(sight.peripheral_radius, -0.5f),
    AB(sight.view_angle, -1.0f), AB(sight.view_angle, 2.0e9f),
    AB(sight.peripheral_angle, 3.0e9f), AB(sight.peripheral_angle, -10.0f), AB(sight.rate_hz, -1.0f),
    AB(position.x, 2.0e6f), AB(sight.eye_offset.y, 3.0e38f), AB(hearing.sensitivity, 3.0e38f),
    AB(hearing.sensitivity, -1.0f), AB(memory.decay_per_second, -0.2f),
    AB(memory.forget_threshold, -0.1f), AB(memory.forget_threshold, 1.5f), AB(brain.search_duration, -1.0f),
    AB(brain.investigate_timeout, -1.0f), AB(awareness.rise_per_second, -2.0f),
    AB(awareness.fall_per_second, -0.25f), AB(awareness.far_factor, 1.5f),
    AB(awareness.edge_factor, -0.5f), AB(awareness.suspicious_threshold, 1.5f), AB(awareness.alert_threshold, -0.1f),
    AB(awareness.aware_threshold, 0.0f), AB(awareness.aware_threshold, 2.0f),
    AB(sight.lose_sight_radius, 5.0f), /* smaller than the view radius (10) and not 0 (off) */
    AB(forward.z, 0.0f),         /* with x = y = 0: the zero direction */
};

static void ranges(void) {
    Fx fx;
    ArgusWorldDef wd;
    ArgusWorld *out_world = NULL;
    ArgusAgentDef ad;
    ArgusTargetDef td;
    ArgusOccluderDef od;
    ArgusSoundDef sd;
    ArgusAgentId aid;
    ArgusTargetId tid;
    ArgusOccluderId oid;
    ArgusVec3 tri[3];
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    uint32_t att = 777, live;
    const ArgusQuat zero_q = {0, 0, 0, 0};
    const ArgusVec3 zero = v3(0, 0, 0), tiny = v3(1e-7f, 0, 0);
    size_t i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    live = argus_live_world_count();

    /* World def. */
    wd = argus_default_world_def();
    wd.ray_backend = 2;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    wd.ray_backend = 0xFFFFFFFFu;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    wd = argus_default_world_def();
    wd.sound_occlusion = -0.1f;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    wd.sound_occlusion = 1.5f;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    wd = argus_default_world_def();
    wd.broadphase_cell_size = -1.0f;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    wd = argus_default_world_def();
    wd.worker_threads = 257;
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(out_world == NULL && argus_live_world_count() == live);

    /* Agent def. */
    for (i = 0; i < sizeof AGENT_BAD / sizeof AGENT_BAD[0]; i++) {
        ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
        if (AGENT_BAD[i].offset == offsetof(ArgusAgentDef, forward.z)) ad.forward = zero;
        poke_float(&ad, AGENT_BAD[i].offset, AGENT_BAD[i].value);
        aid.index = 77;
        REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_agent_set_def(fx.w, fx.a[0], &ad), ARGUS_RESULT_INVALID_ARGUMENT);
        if (aid.index != 77) fprintf(stderr, "accepted agent def %s\n", AGENT_BAD[i].name);
        /* The same bad value through its sense's own setter. */
        if (AGENT_BAD[i].offset >= offsetof(ArgusAgentDef, awareness))
            REFUSED(&fx, argus_agent_set_awareness(fx.w, fx.a[0], &ad.awareness), ARGUS_RESULT_INVALID_ARGUMENT);
        else if (AGENT_BAD[i].offset >= offsetof(ArgusAgentDef, brain))
            REFUSED(&fx, argus_agent_set_brain(fx.w, fx.a[0], &ad.brain), ARGUS_RESULT_INVALID_ARGUMENT);
        else if (AGENT_BAD[i].offset >= offsetof(ArgusAgentDef, memory))
            REFUSED(&fx, argus_agent_set_memory_settings(fx.w, fx.a[0], &ad.memory), ARGUS_RESULT_INVALID_ARGUMENT);
        else if (AGENT_BAD[i].offset >= offsetof(ArgusAgentDef, hearing))
            REFUSED(&fx, argus_agent_set_hearing(fx.w, fx.a[0], &ad.hearing), ARGUS_RESULT_INVALID_ARGUMENT);
        else if (AGENT_BAD[i].offset >= offsetof(ArgusAgentDef, sight))
            REFUSED(&fx, argus_agent_set_sight(fx.w, fx.a[0], &ad.sight), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
    ad.awareness.suspicious_threshold = 0.8f; /* above alert (0.7) */
    REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
    ad = guard_def(v3(1, 0, 1), tiny);
    REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
    ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
    ad.team = 64;
    REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
    ad.team = 0xFFFFFFFFu;
    REFUSED(&fx, argus_agent_set_def(fx.w, fx.a[0], &ad), ARGUS_RESULT_INVALID_ARGUMENT);
    ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
    ad.detect_mask = 8; /* not an ARGUS_DETECT_* bit */
    REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_INVALID_ARGUMENT);
    /* The boundaries themselves are fine. */
    ad = guard_def(v3(1, 0, 1), v3(0, 0, 1));
    ad.sight.view_angle = 360.0f;
    ad.sight.peripheral_angle = 360.0f;
    ad.sight.lose_sight_radius = ad.sight.view_radius;
    ad.team = 63;
    ad.detect_mask = ARGUS_DETECT_HOSTILE | ARGUS_DETECT_NEUTRAL | ARGUS_DETECT_FRIENDLY;
    CHECK_OK(argus_agent_create(fx.w, &ad, &aid));
    CHECK_OK(argus_agent_destroy(fx.w, aid));

    /* Target def. */
    td = target_def(v3(1, 0, 1));
    td.team = 64;
    REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], &td), ARGUS_RESULT_INVALID_ARGUMENT);
    td = target_def(v3(1, 0, 1));
    td.check_point_count = 0;
    REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
    td.check_point_count = ARGUS_MAX_CHECK_POINTS + 1;
    REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
    td.check_point_count = 0xFFFFFFFFu;
    REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], &td), ARGUS_RESULT_INVALID_ARGUMENT);
    td = target_def(v3(1, 0, 1));
    td.forward = zero;
    REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_INVALID_ARGUMENT);
    td.forward = tiny;
    REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], &td), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Sound def. */
    sd = argus_default_sound_def();
    sd.loudness = -1.0f;
    REFUSED(&fx, argus_world_emit_sound(fx.w, &sd), ARGUS_RESULT_INVALID_ARGUMENT);
    sd = argus_default_sound_def();
    sd.team = 64;
    REFUSED(&fx, argus_world_emit_sound(fx.w, &sd), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Occluder def. */
    od = argus_default_occluder_def();
    od.shape = 4;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.shape = 0xFFFFFFFFu;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    for (i = 0; i < 3; i++) {
        od = argus_default_occluder_def();
        poke_float(&od.half_extents, 4 * i, 0.0f);
        REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
        poke_float(&od.half_extents, 4 * i, -1.0f);
        REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    od = argus_default_occluder_def();
    od.rotation = zero_q;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od = argus_default_occluder_def();
    od.shape = ARGUS_SHAPE_KIND_SPHERE;
    od.radius = 0.0f;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.radius = -1.0f;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.shape = ARGUS_SHAPE_KIND_CAPSULE;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.radius = 0.5f;
    od.half_height = -1.0f;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    tri[0] = v3(0, 0, 0);
    tri[1] = v3(1, 0, 0);
    tri[2] = v3(0, 1, 0);
    od = argus_default_occluder_def();
    od.shape = ARGUS_SHAPE_KIND_MESH;
    od.vertices = tri;
    od.indices = idx;
    od.vertex_count = 2; /* fewer than 3 vertices */
    od.index_count = 3;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.vertex_count = 3;
    od.index_count = 6; /* the second triangle uses vertex 3 */
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.index_count = 4; /* not a multiple of 3 */
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.index_count = 0;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Zero directions in poses. */
    REFUSED(&fx, argus_agent_set_pose(fx.w, fx.a[0], v3(1, 0, 1), zero), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_pose(fx.w, fx.t[0], v3(1, 0, 1), zero), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_pose(fx.w, fx.a[0], v3(1, 0, 1), tiny), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_occluder_set_pose(fx.w, fx.o[0], v3(1, 0, 1), zero_q), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Memory confidence in [0, 1]. */
    REFUSED(&fx, argus_agent_remember(fx.w, fx.a[0], fx.t[1], v3(1, 0, 1), -0.1f), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_remember(fx.w, fx.a[0], fx.t[1], v3(1, 0, 1), 1.1f), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Teams and attitudes. */
    REFUSED(&fx, argus_world_set_attitude(fx.w, 0, 1, 3), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_set_attitude(fx.w, 0, 1, 0xFFFFFFFFu), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_set_attitude(fx.w, 64, 1, ARGUS_ATTITUDE_NEUTRAL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_set_attitude(fx.w, 0, 64, ARGUS_ATTITUDE_NEUTRAL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_set_attitude(fx.w, 0xFFFFFFFFu, 0, ARGUS_ATTITUDE_NEUTRAL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_attitude(fx.w, 64, 0, &att), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_world_get_attitude(fx.w, 0, 0xFFFFFFFFu, &att), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(att == 777);
    fx_free(&fx);
}

/* ---- defs not from argus_default_*_def ------------------------------------------------------ */

static void cookies(void) {
    Fx fx;
    ArgusWorldDef wd;
    ArgusWorld *out_world = NULL;
    ArgusAgentDef ad;
    ArgusTargetDef td;
    ArgusOccluderDef od;
    ArgusSoundDef sd;
    ArgusAgentId aid = {77, 0, 77};
    ArgusTargetId tid = {77, 0, 77};
    ArgusOccluderId oid = {77, 0, 77};
    uint32_t live;
    const uint32_t wrong[2] = {0, 0xDEADBEEFu};
    int i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    live = argus_live_world_count();
    for (i = 0; i < 2; i++) {
        wd = argus_default_world_def();
        wd.internal_cookie = wrong[i];
        CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        ad = argus_default_agent_def();
        ad.internal_cookie = wrong[i];
        REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        REFUSED(&fx, argus_agent_set_def(fx.w, fx.a[0], &ad), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        td = argus_default_target_def();
        td.internal_cookie = wrong[i];
        REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        REFUSED(&fx, argus_target_set_def(fx.w, fx.t[0], &td), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        od = argus_default_occluder_def();
        od.internal_cookie = wrong[i];
        REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
        sd = argus_default_sound_def();
        sd.internal_cookie = wrong[i];
        REFUSED(&fx, argus_world_emit_sound(fx.w, &sd), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    }
    /* A zeroed struct is the usual way to get here in C. */
    memset(&wd, 0, sizeof wd);
    CHECK_RESULT(argus_world_create(&wd, &out_world), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    memset(&ad, 0, sizeof ad);
    REFUSED(&fx, argus_agent_create(fx.w, &ad, &aid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    memset(&td, 0, sizeof td);
    REFUSED(&fx, argus_target_create(fx.w, &td, &tid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    memset(&od, 0, sizeof od);
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    memset(&sd, 0, sizeof sd);
    REFUSED(&fx, argus_world_emit_sound(fx.w, &sd), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    CHECK(out_world == NULL && argus_live_world_count() == live);
    CHECK(aid.index == 77 && tid.index == 77 && oid.index == 77);
    fx_free(&fx);
}

/* ---- huge counts against small guarded buffers (each in a child) --------------------------- */

static void huge_bulk_counts(void) {
    Fx fx;
    ArgusAgentId *aids = (ArgusAgentId *)guarded(sizeof(ArgusAgentId));
    ArgusTargetId *tids = (ArgusTargetId *)guarded(sizeof(ArgusTargetId));
    ArgusVec3 *pos = (ArgusVec3 *)guarded(sizeof(ArgusVec3));
    ArgusVec3 *fwd = (ArgusVec3 *)guarded(sizeof(ArgusVec3));
    const uint32_t counts[4] = {0xFFFFFFFFu, 0x80000000u, ARGUS_MAX_BATCH, NA + 1};
    int i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    *pos = v3(1, 0, 1);
    *fwd = v3(0, 0, 1);
    for (i = 0; i < 4; i++) {
        *aids = fx.a[0];
        *tids = fx.t[0];
        REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, counts[i]), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, NULL, counts[i]), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, fwd, counts[i]), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, NULL, counts[i]), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    fx_free(&fx);
}

static void huge_mesh_counts(void) {
    Fx fx;
    ArgusVec3 *tri = (ArgusVec3 *)guarded(3 * sizeof(ArgusVec3));
    uint32_t *idx = (uint32_t *)guarded(3 * sizeof(uint32_t));
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusOccluderId oid;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    tri[0] = v3(0, 0, 0);
    tri[1] = v3(1, 0, 0);
    tri[2] = v3(0, 1, 0);
    idx[0] = 0, idx[1] = 1, idx[2] = 2;
    od.shape = ARGUS_SHAPE_KIND_MESH;
    od.vertices = tri;
    od.indices = idx;
    od.vertex_count = 0xFFFFFFFFu;
    od.index_count = 3;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.vertex_count = 3;
    od.index_count = 0xFFFFFFFFu; /* a multiple of 3 */
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.index_count = 0xFFFFFFFEu;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.vertex_count = 0xFFFFFFFFu;
    REFUSED(&fx, argus_occluder_create(fx.w, &od, &oid), ARGUS_RESULT_INVALID_ARGUMENT);
    od.vertex_count = 3; /* the real thing still works */
    od.index_count = 3;
    CHECK_OK(argus_occluder_create(fx.w, &od, &oid));
    fx_free(&fx);
}

static void huge_finish_count(void) {
    Fx en;
    ArgusRayArray rays;
    ArgusRayHit *hits;
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
    CHECK(rays.count == 2);
    hits = (ArgusRayHit *)guarded(2 * sizeof(ArgusRayHit));
    REFUSED(&en, argus_world_step_finish(en.w, hits, 0xFFFFFFFFu), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&en, argus_world_step_finish(en.w, hits, 0x80000000u), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_step_finish(en.w, hits, 2));
    fx_free(&en);
}

/* The count must be checked against the pending ray count before `hits` is read. */
static void finish_count_above_rays(void) {
    Fx en;
    ArgusRayArray rays;
    ArgusRayHit *hits;
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
    CHECK(rays.count == 2);
    hits = (ArgusRayHit *)guarded(2 * sizeof(ArgusRayHit));
    REFUSED(&en, argus_world_step_finish(en.w, hits, 3), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&en, argus_world_step_finish(en.w, hits, 4096), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&en, argus_world_step_finish(en.w, hits, ARGUS_MAX_BATCH), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_step_finish(en.w, hits, 2));
    fx_free(&en);
}

/* Without a pending step there is nothing to read `hits` for. */
static void finish_without_step(void) {
    Fx en;
    ArgusRayHit *hits = (ArgusRayHit *)guarded(sizeof(ArgusRayHit));
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    REFUSED(&en, argus_world_step_finish(en.w, hits, 1), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    REFUSED(&en, argus_world_step_finish(en.w, hits, 4096), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    REFUSED(&en, argus_world_step_finish(en.w, hits, ARGUS_MAX_BATCH), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    fx_free(&en);
}

/* A capacity larger than the real buffer is fine as long as the records fit. */
static void capacity_above_buffer(void) {
    Fx fx;
    ArgusMemoryRecord *records;
    ArgusTargetRef *seen;
    uint32_t n = 0;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    CHECK_RESULT(argus_agent_get_memory(fx.w, fx.a[0], NULL, 0, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 1);
    records = (ArgusMemoryRecord *)guarded(n * sizeof(ArgusMemoryRecord));
    CHECK_OK(argus_agent_get_memory(fx.w, fx.a[0], records, 0xFFFFFFFFu, &n));
    seen = (ArgusTargetRef *)guarded(sizeof(ArgusTargetRef));
    CHECK_OK(argus_agent_get_visible_targets(fx.w, fx.a[0], seen, 0xFFFFFFFFu, &n));
    CHECK(n == 1 && ID_EQ(seen[0].target, fx.t[0]));
    fx_free(&fx);
}

/* ---- caller buffers ------------------------------------------------------------------------- */

static void small_buffers(void) {
    Fx fx;
    ArgusMemoryRecord records[MAXM];
    ArgusTargetRef seen[NT];
    ArgusAgentState state;
    uint32_t n, i;
    unsigned char pristine[sizeof records];
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    /* a0: t0 from sight, t1 and t2 by hand: three records. */
    CHECK_OK(argus_agent_remember(fx.w, fx.a[0], fx.t[1], v3(0, 0, -5), 0.5f));
    CHECK_OK(argus_agent_remember(fx.w, fx.a[0], fx.t[2], v3(14, 0, 0), 0.25f));
    memset(records, 0xCD, sizeof records);
    memcpy(pristine, records, sizeof records);
    n = 0;
    REFUSED(&fx, argus_agent_get_memory(fx.w, fx.a[0], NULL, 0, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 3);
    n = 0;
    REFUSED(&fx, argus_agent_get_memory(fx.w, fx.a[0], records, 2, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 3);
    CHECK(memcmp(records, pristine, sizeof records) == 0); /* nothing written on failure */
    CHECK_OK(argus_agent_get_memory(fx.w, fx.a[0], records, n, &n));
    CHECK(n == 3);
    CHECK_OK(argus_agent_get_state(fx.w, fx.a[0], &state));
    CHECK(state.memory_count == 3);
    CHECK(ID_EQ(records[0].target, fx.t[0]) || ID_EQ(records[1].target, fx.t[0]) || ID_EQ(records[2].target, fx.t[0]));
    for (i = 0; i < 3; i++) {
        if (ID_EQ(records[i].target, fx.t[1])) CHECK_NEAR(records[i].confidence, 0.5, 0.0);
        if (ID_EQ(records[i].target, fx.t[2])) CHECK_NEAR(records[i].confidence, 0.25, 0.0);
    }
    CHECK(memcmp(&records[3], &pristine[3 * sizeof(ArgusMemoryRecord)], sizeof(ArgusMemoryRecord)) == 0);
    /* An agent with no memory: any buffer, even none, fits. */
    n = 777;
    HARMLESS(&fx, argus_agent_get_memory(fx.w, fx.a[2], NULL, 0, &n));
    CHECK(n == 0);

    /* a0 sees t0; move t1 into view too: two visible targets, in slot order. */
    CHECK_OK(argus_target_set_pose(fx.w, fx.t[1], v3(1, 0, 6), v3(0, 0, 1)));
    memset(seen, 0xCD, sizeof seen);
    n = 0;
    REFUSED(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], NULL, 0, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 2);
    n = 0;
    REFUSED(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], seen, 1, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 2 && seen[0].target.index == 0xCDCDCDCDu);
    HARMLESS(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], seen, n, &n));
    CHECK(n == 2 && ID_EQ(seen[0].target, fx.t[0]) && ID_EQ(seen[1].target, fx.t[1]));
    CHECK(seen[2].target.index == 0xCDCDCDCDu);
    n = 777;
    HARMLESS(&fx, argus_agent_get_visible_targets(fx.w, fx.a[2], NULL, 0, &n));
    CHECK(n == 0);
    fx_free(&fx);
}

/* ---- bulk poses are all-or-nothing ----------------------------------------------------------- */

static void bulk_atomic(void) {
    Fx fx;
    ArgusAgentId aids[NA + 1];
    ArgusTargetId tids[NT + 1];
    ArgusVec3 pos[NA + 1], fwd[NA + 1];
    ArgusAgentState state;
    ArgusTargetDef td;
    ArgusAgentId stale;
    ArgusAgentDef ad = argus_default_agent_def();
    int i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    CHECK_OK(argus_agent_create(fx.w, &ad, &stale));
    CHECK_OK(argus_agent_destroy(fx.w, stale));
#define RESET_BULK()                                                   \
    for (i = 0; i < NA; i++) {                                         \
        aids[i] = fx.a[i];                                             \
        tids[i] = fx.t[i];                                             \
        pos[i] = v3((float)i + 0.5f, 0, 2);                            \
        fwd[i] = v3(1, 0, 0);                                          \
    }
    RESET_BULK();
    pos[1].y = NAN;
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, NA), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, fwd, NT), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, NULL, NA), ARGUS_RESULT_INVALID_ARGUMENT);
    RESET_BULK();
    fwd[1] = v3(0, 0, 0);
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, NA), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, fwd, NT), ARGUS_RESULT_INVALID_ARGUMENT);
    RESET_BULK();
    fwd[1].x = INFINITY;
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, NA), ARGUS_RESULT_INVALID_ARGUMENT);
    RESET_BULK();
    aids[1] = stale;
    tids[1].generation = (uint16_t)(tids[1].generation + 1);
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, NA), ARGUS_RESULT_INVALID_ID);
    REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, fwd, NT), ARGUS_RESULT_INVALID_ID);
    /* More entries than live things. */
    RESET_BULK();
    aids[NA] = fx.a[0];
    tids[NT] = fx.t[0];
    pos[NA] = v3(0, 0, 0);
    fwd[NA] = v3(0, 0, 1);
    REFUSED(&fx, argus_agent_set_poses(fx.w, aids, pos, fwd, NA + 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(&fx, argus_target_set_poses(fx.w, tids, pos, fwd, NT + 1), ARGUS_RESULT_INVALID_ARGUMENT);
    /* And the good batch moves everyone. */
    RESET_BULK();
    CHECK_OK(argus_agent_set_poses(fx.w, aids, pos, fwd, NA));
    CHECK_OK(argus_target_set_poses(fx.w, tids, pos, NULL, NT));
    for (i = 0; i < NA; i++) {
        CHECK_OK(argus_agent_get_state(fx.w, fx.a[i], &state));
        CHECK(SAME(state.position, pos[i]) && SAME(state.forward, fwd[i]));
        CHECK_OK(argus_target_get_def(fx.w, fx.t[i], &td));
        CHECK(SAME(td.position, pos[i]));
    }
#undef RESET_BULK
    fx_free(&fx);
}

/* ---- a pending two-phase step ---------------------------------------------------------------- */

static void step_in_progress(void) {
    Fx en;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusSoundDef sd = argus_default_sound_def();
    ArgusRayArray rays, again;
    ArgusRay copy[2];
    ArgusRayHit hits[3];
    ArgusAgentId aid;
    ArgusTargetId tid;
    ArgusOccluderId oid;
    ArgusSightResult sight;
    ArgusVec3 pos = v3(2, 0, 2), fwd = v3(1, 0, 0);
    uint8_t bytes[64];
    uint32_t n;
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    snap_take(&en, &snap_before);
    {
        Snap idle = snap_before;
        CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
        CHECK(rays.count == 2 && rays.items != NULL);
        memcpy(copy, rays.items, sizeof copy);
        /* Every change is refused while rays are out. */
        REFUSED(&en, argus_world_step_begin(en.w, 0.1f, &again), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_world_step(en.w, 0.1f), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_create(en.w, &ad, &aid), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_destroy(en.w, en.a[0]), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_set_def(en.w, en.a[0], &ad), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_set_pose(en.w, en.a[0], pos, fwd), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_set_poses(en.w, en.a, &pos, &fwd, 1), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_report_arrived(en.w, en.a[0]), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_remember(en.w, en.a[0], en.t[1], pos, 1.0f), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_agent_forget(en.w, en.a[0], en.t[0]), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_create(en.w, &td, &tid), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_destroy(en.w, en.t[0]), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_set_def(en.w, en.t[0], &td), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_set_pose(en.w, en.t[0], pos, fwd), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_set_poses(en.w, en.t, &pos, &fwd, 1), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_target_set_enabled(en.w, en.t[0], 0), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_occluder_create(en.w, &od, &oid), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_occluder_destroy(en.w, en.o[0]), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_occluder_set_pose(en.w, en.o[0], pos, IDENTITY), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_occluder_set_layers(en.w, en.o[0], 2), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_world_emit_sound(en.w, &sd), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_world_set_attitude(en.w, 0, 1, ARGUS_ATTITUDE_NEUTRAL), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_world_save(en.w, bytes, sizeof bytes, &n), ARGUS_RESULT_STEP_IN_PROGRESS);
        REFUSED(&en, argus_world_load(en.w, bytes, sizeof bytes), ARGUS_RESULT_STEP_IN_PROGRESS);
        /* No callback in an engine world: an immediate query has nobody to ask. */
        REFUSED(&en, argus_agent_can_see(en.w, en.a[0], en.t[0], &sight), ARGUS_RESULT_NO_RAY_BACKEND);
        /* Wrong answers keep the step pending. */
        memset(hits, 0, sizeof hits);
        REFUSED(&en, argus_world_step_finish(en.w, hits, 1), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&en, argus_world_step_finish(en.w, hits, 3), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&en, argus_world_step_finish(en.w, hits, 0), ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(memcmp(copy, rays.items, sizeof copy) == 0); /* the rays are still there */
        /* Cancel: exactly as before begin. */
        CHECK_OK(argus_world_step_cancel(en.w));
        snap_take(&en, &snap_after);
        snap_before = idle;
        report_unchanged("begin + refused calls + cancel", __FILE__, __LINE__);
        REFUSED(&en, argus_world_step_cancel(en.w), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    }
    fx_free(&en);
}

/* ---- the panic firewall ---------------------------------------------------------------------- */

static void poisoned(void) {
    Fx healthy, sick;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusSoundDef sd = argus_default_sound_def();
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusWorldCounts counts;
    ArgusAgentState state;
    ArgusSightResult sight;
    ArgusMemoryRecord records[MAXM];
    ArgusTargetRef seen[NT];
    ArgusPerceptArray pa;
    ArgusBrainEventArray ba;
    ArgusForgetEventArray fa;
    ArgusAwarenessEventArray wa;
    ArgusRayArray rays;
    ArgusDebugDraw dd;
    ArgusAgentId aid = {77, 0, 77};
    ArgusTargetId tid = {77, 0, 77};
    ArgusOccluderId oid = {77, 0, 77};
    ArgusVec3 pos = v3(1, 0, 1), fwd = v3(0, 0, 1);
    ArgusRayHit hit = {0, 0.0f};
    uint8_t bytes[16] = {0};
    double time = -7.0;
    uint32_t n = 777, att = 777, live;
    fx_make(&healthy, ARGUS_RAY_BACKEND_BUILTIN);
    fx_make(&sick, ARGUS_RAY_BACKEND_BUILTIN);
    live = argus_live_world_count();
    CHECK_RESULT(argus_testing_trigger_panic(sick.w), ARGUS_RESULT_PANIC);
    CHECK(strstr(argus_world_last_error(sick.w), "panic") != NULL);
#define POISONED(expr)                                                                 \
    do {                                                                               \
        CHECK_RESULT(expr, ARGUS_RESULT_WORLD_POISONED);                               \
        CHECK(argus_world_last_error(sick.w)[0] != '\0');                              \
    } while (0)
    POISONED(argus_testing_trigger_panic(sick.w));
    POISONED(argus_world_get_counts(sick.w, &counts));
    POISONED(argus_world_get_time(sick.w, &time));
    POISONED(argus_world_set_ray_callback(sick.w, NULL, NULL));
    POISONED(argus_world_step(sick.w, 0.1f));
    POISONED(argus_world_step_begin(sick.w, 0.1f, &rays));
    POISONED(argus_world_step_finish(sick.w, &hit, 1));
    POISONED(argus_world_step_cancel(sick.w));
    POISONED(argus_world_set_attitude(sick.w, 0, 1, ARGUS_ATTITUDE_NEUTRAL));
    POISONED(argus_world_get_attitude(sick.w, 0, 1, &att));
    POISONED(argus_world_emit_sound(sick.w, &sd));
    POISONED(argus_world_get_percepts(sick.w, &pa));
    POISONED(argus_world_get_brain_events(sick.w, &ba));
    POISONED(argus_world_get_forget_events(sick.w, &fa));
    POISONED(argus_world_get_awareness_events(sick.w, &wa));
    POISONED(argus_world_debug_draw(sick.w, &opts, &dd));
    POISONED(argus_world_save(sick.w, bytes, sizeof bytes, &n));
    POISONED(argus_world_load(sick.w, bytes, sizeof bytes));
    POISONED(argus_agent_create(sick.w, &ad, &aid));
    POISONED(argus_agent_destroy(sick.w, sick.a[0]));
    POISONED(argus_agent_set_def(sick.w, sick.a[0], &ad));
    POISONED(argus_agent_get_def(sick.w, sick.a[0], &ad));
    POISONED(argus_agent_set_pose(sick.w, sick.a[0], pos, fwd));
    POISONED(argus_agent_set_poses(sick.w, sick.a, &pos, &fwd, 1));
    POISONED(argus_agent_get_state(sick.w, sick.a[0], &state));
    POISONED(argus_agent_report_arrived(sick.w, sick.a[0]));
    POISONED(argus_agent_get_memory(sick.w, sick.a[0], records, MAXM, &n));
    POISONED(argus_agent_remember(sick.w, sick.a[0], sick.t[0], pos, 0.5f));
    POISONED(argus_agent_forget(sick.w, sick.a[0], sick.t[0]));
    POISONED(argus_agent_can_see(sick.w, sick.a[0], sick.t[0], &sight));
    POISONED(argus_agent_get_visible_targets(sick.w, sick.a[0], seen, NT, &n));
    POISONED(argus_target_create(sick.w, &td, &tid));
    POISONED(argus_target_destroy(sick.w, sick.t[0]));
    POISONED(argus_target_set_def(sick.w, sick.t[0], &td));
    POISONED(argus_target_get_def(sick.w, sick.t[0], &td));
    POISONED(argus_target_set_pose(sick.w, sick.t[0], pos, fwd));
    POISONED(argus_target_set_poses(sick.w, sick.t, &pos, &fwd, 1));
    POISONED(argus_target_set_enabled(sick.w, sick.t[0], 0));
    POISONED(argus_occluder_create(sick.w, &od, &oid));
    POISONED(argus_occluder_destroy(sick.w, sick.o[0]));
    POISONED(argus_occluder_set_pose(sick.w, sick.o[0], pos, IDENTITY));
    POISONED(argus_occluder_set_layers(sick.w, sick.o[0], 2));
    /* Even invalid arguments get the poisoned answer (nothing is looked at). */
    POISONED(argus_world_get_counts(sick.w, NULL));
    POISONED(argus_world_step(sick.w, NAN));
#undef POISONED
    CHECK(time == -7.0 && n == 777 && att == 777);
    CHECK(aid.index == 77 && tid.index == 77 && oid.index == 77);
    CHECK(ad.internal_cookie == ARGUS_DEF_COOKIE && td.internal_cookie == ARGUS_DEF_COOKIE);
    /* The other world does not notice. */
    fx_step(&healthy, 0.1f);
    CHECK_OK(argus_world_get_counts(healthy.w, &counts));
    CHECK(counts.agents == NA && counts.targets == NT && counts.occluders == NO);
    CHECK_OK(argus_world_get_time(healthy.w, &time));
    CHECK_NEAR(time, 0.2, 1e-6);
    CHECK(argus_world_last_error(healthy.w)[0] == '\0');
    /* Destroy still works, once. */
    fx_free(&sick);
    CHECK(argus_live_world_count() == live - 1);
    fx_free(&healthy);
}

/* ---- live world count ------------------------------------------------------------------------ */

static void live_count(void) {
    uint32_t start = argus_live_world_count();
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *worlds[16];
    int round, i;
    for (round = 0; round < 20; round++) {
        for (i = 0; i < 16; i++) {
            ArgusAgentDef ad = argus_default_agent_def();
            ArgusAgentId aid;
            worlds[i] = NULL;
            CHECK_OK(argus_world_create(&wd, &worlds[i]));
            CHECK_OK(argus_agent_create(worlds[i], &ad, &aid));
        }
        CHECK(argus_live_world_count() == start + 16);
        if (round == 0) CHECK_RESULT(argus_testing_trigger_panic(worlds[3]), ARGUS_RESULT_PANIC);
        for (i = 15; i >= 0; i--) argus_world_destroy(worlds[i]);
        CHECK(argus_live_world_count() == start);
    }
}

/* ---- engine ray callbacks that misbehave ----------------------------------------------------- */

static ArgusResult nan_cast(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    float distance = *(const float *)user_data;
    uint32_t i;
    (void)rays;
    for (i = 0; i < count; i++) {
        hits[i].hit = 1;
        hits[i].distance = distance;
    }
    return ARGUS_RESULT_OK;
}

static void bad_callback_hits(void) {
    Fx fx;
    ArgusSightResult sight;
    ArgusTargetRef seen[NT];
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusDebugDraw dd;
    uint32_t n = 777, k;
    float distance;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    for (k = 0; k < 4; k++) {
        distance = k < 3 ? NON_FINITE[k] : -1.0f;
        CHECK_OK(argus_world_set_ray_callback(fx.w, nan_cast, &distance));
        REFUSED(&fx, argus_world_step(fx.w, 0.1f), ARGUS_RESULT_INVALID_ARGUMENT);
        /* The ArgusRayHit contract holds for immediate queries too: no NaN in the answer. */
        memset(&sight, 0, sizeof sight);
        REFUSED(&fx, argus_agent_can_see(fx.w, fx.a[0], fx.t[0], &sight), ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(sight.point_hits[2] == 0.0f); /* not written */
        REFUSED(&fx, argus_agent_get_visible_targets(fx.w, fx.a[0], seen, NT, &n), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(&fx, argus_world_debug_draw(fx.w, &opts, &dd), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    CHECK_OK(argus_world_set_ray_callback(fx.w, NULL, NULL));
    fx_step(&fx, 0.1f);
    fx_free(&fx);
}

/* Calls into a world from inside that world's own ray callback. */
typedef struct Reentry {
    ArgusWorld *w;
    ArgusAgentId agent;
    int calls;
    int accepted; /* reentrant changes the world let through */
} Reentry;

static ArgusResult reentrant_cast(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    Reentry *r = (Reentry *)user_data;
    ArgusTargetDef td = argus_default_target_def();
    ArgusTargetId tid;
    uint32_t i;
    int k;
    (void)rays;
    for (i = 0; i < count; i++) {
        hits[i].hit = 0;
        hits[i].distance = 0.0f;
    }
    if (r->calls++ == 0) {
        /* Enough creations to make the world reallocate its target slots. */
        for (k = 0; k < 64; k++) {
            td.position = v3(0, 0, 2.0f + 0.01f * (float)k);
            if (argus_target_create(r->w, &td, &tid) == ARGUS_RESULT_OK) r->accepted++;
        }
        if (r->agent.generation != 0 && argus_agent_destroy(r->w, r->agent) == ARGUS_RESULT_OK) r->accepted++;
    }
    return ARGUS_RESULT_OK;
}

static void reentrant_debug_draw(void) {
    Fx fx;
    Reentry r;
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusDebugDraw dd;
    ArgusWorldCounts counts;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    memset(&r, 0, sizeof r);
    r.w = fx.w; /* r.agent stays null: the draw goes on over every target */
    CHECK_OK(argus_world_set_ray_callback(fx.w, reentrant_cast, &r));
    (void)argus_world_debug_draw(fx.w, &opts, &dd);
    CHECK(r.calls > 0);
    CHECK(r.accepted == 0); /* a world busy in a call refuses changes from its own callback */
    CHECK_OK(argus_world_get_counts(fx.w, &counts));
    CHECK(counts.targets == NT && counts.agents == NA);
    fx_free(&fx);
}

static void reentrant_can_see(void) {
    Fx fx;
    Reentry r;
    ArgusSightResult sight;
    ArgusWorldCounts counts;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    memset(&r, 0, sizeof r);
    r.w = fx.w;
    r.agent = fx.a[0]; /* the very agent that is looking */
    CHECK_OK(argus_world_set_ray_callback(fx.w, reentrant_cast, &r));
    (void)argus_agent_can_see(fx.w, fx.a[0], fx.t[0], &sight);
    CHECK(r.calls == 1);
    CHECK(r.accepted == 0);
    CHECK_OK(argus_world_get_counts(fx.w, &counts));
    CHECK(counts.targets == NT && counts.agents == NA);
    fx_free(&fx);
}

static ArgusResult miss_cast(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    uint32_t i;
    (void)rays;
    (void)user_data;
    for (i = 0; i < count; i++) {
        hits[i].hit = 0;
        hits[i].distance = 0.0f;
    }
    return ARGUS_RESULT_OK;
}

/* The rays of a pending two-phase step stay valid until finish/cancel, whatever queries run. */
static void pending_rays_survive_queries(void) {
    Fx en;
    ArgusRayArray rays;
    ArgusRay copy[2];
    ArgusRayHit hits[2];
    ArgusSightResult sight;
    ArgusTargetRef seen[NT];
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusDebugDraw dd;
    uint32_t n;
    fx_make(&en, ARGUS_RAY_BACKEND_ENGINE);
    CHECK_OK(argus_world_set_ray_callback(en.w, miss_cast, NULL));
    CHECK_OK(argus_world_step_begin(en.w, 0.1f, &rays));
    CHECK(rays.count == 2);
    memcpy(copy, rays.items, sizeof copy);
    (void)argus_agent_can_see(en.w, en.a[1], en.t[2], &sight);
    CHECK(memcmp(copy, rays.items, sizeof copy) == 0);
    (void)argus_agent_get_visible_targets(en.w, en.a[1], seen, NT, &n);
    CHECK(memcmp(copy, rays.items, sizeof copy) == 0);
    (void)argus_world_debug_draw(en.w, &opts, &dd);
    CHECK(memcmp(copy, rays.items, sizeof copy) == 0);
    memset(hits, 0, sizeof hits);
    CHECK_OK(argus_world_step_finish(en.w, hits, 2));
    fx_free(&en);
}

/* A garbage circle_segments must not make the library allocate without bound (a failed
 * allocation aborts the process: no result code can come back). */
static void huge_circle_segments(void) {
    Fx fx;
    ArgusDebugDrawOptions opts = argus_default_debug_draw_options();
    ArgusDebugDraw dd;
    ArgusResult r;
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = (rlim_t)3 << 30; /* 3 GiB of address space */
    CHECK(setrlimit(RLIMIT_AS, &limit) == 0);
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    opts.circle_segments = 0xFFFFFFFFu;
    memset(&dd, 0, sizeof dd);
    r = argus_world_debug_draw(fx.w, &opts, &dd);
    CHECK(r == ARGUS_RESULT_INVALID_ARGUMENT || (r == ARGUS_RESULT_OK && dd.line_count <= (1u << 20)));
    fx_free(&fx);
}

/* ---- snapshots ------------------------------------------------------------------------------- */

static void snapshots(void) {
    Fx fx;
    uint8_t *bytes, *copy;
    uint8_t garbage[64];
    uint32_t size = 0, again = 0, i;
    fx_make(&fx, ARGUS_RAY_BACKEND_BUILTIN);
    REFUSED(&fx, argus_world_save(fx.w, NULL, 0, &size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(size > 0);
    bytes = (uint8_t *)malloc(size);
    copy = (uint8_t *)malloc(size);
    memset(bytes, 0xEE, size);
    REFUSED(&fx, argus_world_save(fx.w, bytes, size - 1, &again), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(again == size && bytes[0] == 0xEE && bytes[size - 2] == 0xEE);
    HARMLESS(&fx, argus_world_save(fx.w, bytes, size, &again));
    CHECK(again == size);
    memcpy(copy, bytes, size);
    /* Truncated, corrupted, empty and garbage snapshots change nothing. */
    REFUSED(&fx, argus_world_load(fx.w, bytes, size - 1), ARGUS_RESULT_BAD_SNAPSHOT);
    REFUSED(&fx, argus_world_load(fx.w, bytes, 8), ARGUS_RESULT_BAD_SNAPSHOT);
    REFUSED(&fx, argus_world_load(fx.w, bytes, 0), ARGUS_RESULT_BAD_SNAPSHOT);
    REFUSED(&fx, argus_world_load(fx.w, NULL, 0), ARGUS_RESULT_BAD_SNAPSHOT);
    for (i = 0; i < size; i += size / 7 + 1) {
        copy[i] ^= 0x5A;
        REFUSED(&fx, argus_world_load(fx.w, copy, size), ARGUS_RESULT_BAD_SNAPSHOT);
        copy[i] ^= 0x5A;
    }
    for (i = 0; i < sizeof garbage; i++) garbage[i] = (uint8_t)(i * 37u + 11u);
    REFUSED(&fx, argus_world_load(fx.w, garbage, sizeof garbage), ARGUS_RESULT_BAD_SNAPSHOT);
    /* The real one loads. */
    CHECK_OK(argus_world_load(fx.w, copy, size));
    free(bytes);
    free(copy);
    fx_free(&fx);
}

/* ---- found by tests/ffi_fuzz.rs: a freed occluder slot ------------------------------------- */

/* Ordinary use, not hostile: destroy one occluder, then move another often enough for the
 * world to rebuild its occluder tree (or save and load it). Neither may panic. */
static void occluder_slot_gaps(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    ArgusOccluderId o[3];
    ArgusWorld *w = NULL;
    uint8_t *bytes;
    uint32_t size = 0;
    int i;
    CHECK_OK(argus_world_create(&wd, &w));
    for (i = 0; i < 3; i++) {
        od.position = v3(5.0f * (float)i, 0, 10);
        CHECK_OK(argus_occluder_create(w, &od, &o[i]));
    }
    CHECK_OK(argus_occluder_destroy(w, o[0]));
    for (i = 0; i < 70; i++) CHECK_OK(argus_occluder_set_pose(w, o[1], v3(5, 0, 10.0f + 0.01f * (float)i), IDENTITY));
    CHECK_OK(argus_world_step(w, 0.1f)); /* the tree is rebuilt here */
    argus_world_destroy(w);

    CHECK_OK(argus_world_create(&wd, &w));
    for (i = 0; i < 3; i++) {
        od.position = v3(5.0f * (float)i, 0, 10);
        CHECK_OK(argus_occluder_create(w, &od, &o[i]));
    }
    CHECK_OK(argus_occluder_destroy(w, o[0]));
    CHECK_RESULT(argus_world_save(w, NULL, 0, &size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = (uint8_t *)malloc(size);
    CHECK_OK(argus_world_save(w, bytes, size, &size));
    CHECK_OK(argus_world_load(w, bytes, size));
    CHECK(argus_occluder_is_valid(w, o[1]) && argus_occluder_is_valid(w, o[2]) && !argus_occluder_is_valid(w, o[0]));
    free(bytes);
    argus_world_destroy(w);
}

int main(void) {
    names_and_versions();
    null_world();
    null_pointers();
    stale_and_forged_ids();
    non_finite();
    ranges();
    cookies();
    small_buffers();
    bulk_atomic();
    step_in_progress();
    poisoned();
    live_count();
    snapshots();
    occluder_slot_gaps();
    isolated("huge bulk pose counts", huge_bulk_counts);
    isolated("huge mesh counts", huge_mesh_counts);
    isolated("huge step_finish count", huge_finish_count);
    isolated("step_finish count above the ray count", finish_count_above_rays);
    isolated("step_finish without a pending step", finish_without_step);
    isolated("capacity above the real buffer", capacity_above_buffer);
    isolated("NaN and negative distances from a ray callback", bad_callback_hits);
    isolated("reentrant calls from a debug-draw ray callback", reentrant_debug_draw);
    isolated("reentrant calls from a can_see ray callback", reentrant_can_see);
    isolated("pending rays survive immediate queries", pending_rays_survive_queries);
    /* An address-space limit cannot coexist with valgrind's or ASan's own huge mappings. */
    if (!under_valgrind() && !getenv("ARGUS_SANITIZED")) isolated("huge circle_segments", huge_circle_segments);
    CHECK(argus_live_world_count() == 0);
    return check_report("hostile.c");
}
