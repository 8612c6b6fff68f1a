/* Tactical queries through the C ABI: cover behind a wall (and none without it), cover steered
 * by a danger map, flanking (behind beats beside, the front is skipped), ties to the lower
 * index, top-K ordering with generated candidates, a too-small result buffer, the engine's
 * ray callback answering cover rays in one batch, and cover in two phases (begin,
 * cast, finish) equal to the built-in answers, with and without per-candidate danger. Hostile input is in tactics_hostile.c. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define LAYOUT(cond) __extension__ _Static_assert(cond, #cond)
LAYOUT(sizeof(ArgusThreat) == 36);
LAYOUT(sizeof(ArgusTacticalResult) == 24);
LAYOUT(sizeof(ArgusTacticalAnswer) == 20);
LAYOUT(sizeof(void *) != 8 || sizeof(ArgusCandidates) == 56);
LAYOUT(sizeof(void *) != 8 || sizeof(ArgusCoverQuery) == 152);
LAYOUT(sizeof(void *) != 8 || sizeof(ArgusFlankQuery) == 144);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusCoverQuery, candidate_danger) == 136);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusCoverQuery, candidate_danger_count) == 144);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusFlankQuery, candidate_danger) == 128);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusFlankQuery, candidate_danger_count) == 136);

typedef struct Out {
    ArgusTacticalResult results[8];
    uint32_t count;
    ArgusTacticalAnswer answer;
} Out;

static void reset(Out *o) { memset(o, 0xAB, sizeof *o); }

static ArgusResult cover(ArgusWorld *w, const ArgusCoverQuery *q, Out *o, uint32_t capacity) {
    reset(o);
    return argus_world_find_cover(w, q, o->results, capacity, &o->count, &o->answer);
}

static ArgusResult flank(ArgusWorld *w, const ArgusFlankQuery *q, Out *o, uint32_t capacity) {
    reset(o);
    return argus_world_find_flank(w, q, o->results, capacity, &o->count, &o->answer);
}

static int same(ArgusVec3 a, ArgusVec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static ArgusWorld *new_world(uint32_t backend) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusWorld *world = NULL;
    def.ray_backend = backend;
    CHECK_OK(argus_world_create(&def, &world));
    return world;
}

static ArgusOccluderId wall(ArgusWorld *world, ArgusVec3 centre, ArgusVec3 half) {
    ArgusOccluderDef def = argus_default_occluder_def();
    ArgusOccluderId id;
    def.position = centre;
    def.half_extents = half;
    CHECK_OK(argus_occluder_create(world, &def, &id));
    return id;
}

/* A threat at `at` facing `forward`, eyes 1.6 m up. */
static ArgusThreat threat(ArgusVec3 at, ArgusVec3 forward) {
    ArgusThreat t;
    t.position = at;
    t.eye = v3(at.x, at.y + 1.6f, at.z);
    t.forward = forward;
    return t;
}

/* The lesson's scene: a threat at the origin facing +Z, a wall 5 m ahead, the agent at (3, 0, 8). */
static ArgusThreat lesson_threat;
static ArgusVec3 spots[2];

static ArgusCoverQuery lesson_cover_query(void) {
    ArgusCoverQuery q = argus_default_cover_query();
    lesson_threat = threat(v3(0, 0, 0), v3(0, 0, 1));
    spots[0] = v3(0, 0.5f, 6);  /* behind the wall */
    spots[1] = v3(4, 0.5f, 6);  /* in the open, and nearer */
    q.threats = &lesson_threat;
    q.threat_count = 1;
    q.self_position = v3(3, 0, 8);
    q.candidates.kind = ARGUS_CANDIDATE_KIND_POINTS;
    q.candidates.points = spots;
    q.candidates.point_count = 2;
    return q;
}

static void cover_behind_a_wall(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    ArgusOccluderId w = wall(world, v3(0, 1, 5), v3(2, 1, 0.2f));
    ArgusCoverQuery q = lesson_cover_query();
    Out o;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && o.answer.found == 1);
    CHECK(o.results[0].candidate_index == 0 && same(o.results[0].position, spots[0]));
    CHECK(o.results[0].hidden_from == 1);
    CHECK_NEAR(o.results[0].score, sqrt(13.25), 1e-5); /* travel distance, no map */
    CHECK(same(o.answer.position, spots[0]));
    CHECK(o.answer.rays_cast == 2); /* the nearer open spot first, then the hidden one */
    /* The index follows the caller's order. */
    spots[0] = v3(4, 0.5f, 6);
    spots[1] = v3(0, 0.5f, 6);
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && o.results[0].candidate_index == 1);
    /* No wall, no cover: OK, nothing found, the agent's own position, the buffer untouched. */
    CHECK_OK(argus_occluder_destroy(world, w));
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 0 && o.answer.found == 0 && same(o.answer.position, q.self_position));
    CHECK(o.results[0].candidate_index == 0xABABABABu);
    /* A wall on a layer the query ignores does not hide anything either. */
    w = wall(world, v3(0, 1, 5), v3(2, 1, 0.2f));
    q.obstacle_mask = 2;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 0);
    argus_world_destroy(world);
}

static void cover_avoids_danger(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusInfluenceMapId map;
    ArgusCoverQuery q = lesson_cover_query();
    Out o;
    wall(world, v3(0, 1, 5), v3(6, 1, 0.2f));
    def.width = 20;
    def.height = 20;
    def.origin = v3(-10, 0, -10);
    CHECK_OK(argus_influence_map_create(world, &def, &map));
    spots[0] = v3(1, 0.5f, 6);   /* near, but dangerous */
    spots[1] = v3(-4, 0.5f, 6);  /* farther, safe */
    q.self_position = v3(1, 0, 8);
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && o.results[0].candidate_index == 0);
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, spots[0], 1.0f, 0));
    q.map = map;
    q.map_layer = 0;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && o.results[0].candidate_index == 1);
    CHECK_NEAR(o.results[0].score, sqrt(25.0 + 0.25 + 4.0), 1e-5);
    q.top_k = 2;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 2 && o.results[1].candidate_index == 0);
    CHECK_NEAR(o.results[1].score, 10.0 + sqrt(0.25 + 4.0), 1e-5); /* danger x 10 + travel */
    argus_world_destroy(world);
}

static void candidate_danger(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    ArgusCoverQuery q = lesson_cover_query();
    ArgusFlankQuery f = argus_default_flank_query();
    ArgusVec3 behind[2];
    float danger[2] = {0.0f, 0.0f}, bad[2] = {0.0f, NAN};
    Out o;
    CHECK(q.candidate_danger == NULL && q.candidate_danger_count == 0);
    CHECK(f.candidate_danger == NULL && f.candidate_danger_count == 0);
    wall(world, v3(0, 1, 5), v3(6, 1, 0.2f));
    spots[0] = v3(1, 0.5f, 6);  /* near */
    spots[1] = v3(-4, 0.5f, 6); /* farther */
    q.self_position = v3(1, 0, 8);
    q.top_k = 2;
    q.candidate_danger = danger;
    q.candidate_danger_count = 2;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 2 && o.results[0].candidate_index == 0);
    danger[0] = 1.0f; /* no map: the array alone is the danger, x 10 */
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 2 && o.results[0].candidate_index == 1 && o.results[1].candidate_index == 0);
    CHECK_NEAR(o.results[1].score, 10.0 + sqrt(0.25 + 4.0), 1e-5);
    /* A wrong count, a NaN, a NULL array with a count: refused, the buffer untouched. */
    q.candidate_danger_count = 1;
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(o.results[0].candidate_index == 0xABABABABu);
    q.candidate_danger_count = 2;
    q.candidate_danger = bad;
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    q.candidate_danger = NULL;
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(o.results[0].candidate_index == 0xABABABABu);
    /* Flank: two spots behind the threat, mirror images; the danger picks the safer one. */
    behind[0] = v3(3, 0, -4);
    behind[1] = v3(-3, 0, -4);
    f.candidates.points = behind;
    f.candidates.point_count = 2;
    f.top_k = 2;
    danger[0] = 0.5f;
    danger[1] = 0.0f;
    f.candidate_danger = danger;
    f.candidate_danger_count = 2;
    CHECK_OK(flank(world, &f, &o, 8));
    CHECK(o.count == 2 && o.results[0].candidate_index == 1);
    CHECK_NEAR(o.results[0].score, 0.8, 1e-5);       /* -facing (-0.8) */
    CHECK_NEAR(o.results[1].score, 0.8 - 0.5, 1e-5); /* -facing - danger */
    f.candidate_danger = bad;
    CHECK_RESULT(flank(world, &f, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    f.candidate_danger = danger;
    f.candidate_danger_count = 3;
    CHECK_RESULT(flank(world, &f, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    argus_world_destroy(world);
}

static void flanking(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_ENGINE); /* a flank casts no ray */
    ArgusFlankQuery q = argus_default_flank_query();
    ArgusVec3 pts[3];
    Out o;
    CHECK(same(q.threat.position, v3(0, 0, 0)) && same(q.threat.forward, v3(0, 0, 1)));
    pts[0] = v3(0, 0, 5);   /* in front */
    pts[1] = v3(5, 0, 0);   /* beside */
    pts[2] = v3(0, 0, -5);  /* behind */
    q.candidates.points = pts;
    q.candidates.point_count = 3;
    q.top_k = 3;
    CHECK_OK(flank(world, &q, &o, 8));
    CHECK(o.count == 2 && o.answer.found == 2 && o.answer.rays_cast == 0);
    CHECK(o.results[0].candidate_index == 2 && o.results[0].score == 1.0f); /* -facing */
    CHECK(o.results[1].candidate_index == 1 && o.results[1].score == 0.0f);
    CHECK(same(o.answer.position, pts[2]));
    /* All in front: OK, nothing found, the threat's position. */
    q.threat = threat(v3(2, 0, 3), v3(0, 0, 1));
    pts[0] = v3(2, 0, 8);
    pts[1] = v3(3, 0, 8);
    pts[2] = v3(1, 0, 8);
    CHECK_OK(flank(world, &q, &o, 8));
    CHECK(o.count == 0 && o.answer.found == 0 && same(o.answer.position, v3(2, 0, 3)));
    argus_world_destroy(world);
}

static void ties_go_to_the_lower_index(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    ArgusFlankQuery f = argus_default_flank_query();
    ArgusCoverQuery c = lesson_cover_query();
    ArgusVec3 pts[2];
    Out o;
    int round;
    wall(world, v3(0, 1, 5), v3(6, 1, 0.2f));
    c.self_position = v3(0, 0, 8);
    c.top_k = 2;
    f.top_k = 2;
    f.candidates.points = pts;
    f.candidates.point_count = 2;
    for (round = 0; round < 2; round++) {
        float side = round == 0 ? 1.0f : -1.0f;
        pts[0] = v3(5 * side, 0, 0); /* both exactly beside: equal scores */
        pts[1] = v3(-5 * side, 0, 0);
        CHECK_OK(flank(world, &f, &o, 8));
        CHECK(o.count == 2 && o.results[0].score == o.results[1].score);
        CHECK(o.results[0].candidate_index == 0 && same(o.results[0].position, pts[0]));
        spots[0] = v3(2 * side, 0.5f, 6); /* equally far from the agent, both hidden */
        spots[1] = v3(-2 * side, 0.5f, 6);
        CHECK_OK(cover(world, &c, &o, 8));
        CHECK(o.count == 2 && o.results[0].score == o.results[1].score);
        CHECK(o.results[0].candidate_index == 0 && same(o.answer.position, spots[0]));
    }
    argus_world_destroy(world);
}

static void top_k(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    ArgusCoverQuery c = lesson_cover_query();
    ArgusFlankQuery f = argus_default_flank_query();
    uint32_t i, needed = 0;
    Out o, untouched;
    wall(world, v3(0, 1, 5), v3(10, 1, 0.2f));
    /* A 5 x 5 grid behind a long wall, all hidden: ranked by distance from the agent at its
     * centre, equal distances by index (row by row from -Z, each row from -X). */
    c.candidates.kind = ARGUS_CANDIDATE_KIND_GRID;
    c.candidates.center = v3(0, 0.5f, 8);
    c.candidates.spacing = 1;
    c.candidates.half_count = 2;
    c.self_position = v3(0, 0, 8);
    c.top_k = 5;
    CHECK_OK(cover(world, &c, &o, 8));
    CHECK(o.count == 5 && o.answer.found == 5 && o.answer.rays_cast == 5);
    CHECK(o.results[0].candidate_index == 12 && o.results[1].candidate_index == 7);
    CHECK(o.results[2].candidate_index == 11 && o.results[3].candidate_index == 13);
    CHECK(o.results[4].candidate_index == 17);
    CHECK(same(o.results[1].position, v3(0, 0.5f, 7)) && same(o.results[2].position, v3(-1, 0.5f, 8)));
    for (i = 1; i < 5; i++) CHECK(o.results[i - 1].score <= o.results[i].score);
    /* Too small: BUFFER_TOO_SMALL with the needed count; nothing else written. */
    reset(&untouched);
    CHECK_RESULT(argus_world_find_cover(world, &c, o.results, 3, &needed, &o.answer), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == 5);
    reset(&o);
    CHECK_RESULT(argus_world_find_cover(world, &c, o.results, 4, &o.count, &o.answer), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(o.count == 5 && memcmp(o.results, untouched.results, sizeof o.results) == 0);
    CHECK(memcmp(&o.answer, &untouched.answer, sizeof o.answer) == 0);
    CHECK_RESULT(argus_world_find_cover(world, &c, NULL, 0, &needed, &o.answer), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == 5);
    CHECK_OK(cover(world, &c, &o, 5)); /* exactly enough */

    /* A ring of 8 around a threat facing +Z: +X first, turning towards +Z; behind (index 6)
     * first, then best-first with equal scores by index. Fewer found than top_k → the
     * buffer only needs the found count. */
    f.candidates.kind = ARGUS_CANDIDATE_KIND_RING;
    f.candidates.inner_radius = 4;
    f.candidates.outer_radius = 4;
    f.candidates.rings = 1;
    f.candidates.per_ring = 8;
    f.top_k = 8;
    CHECK_OK(flank(world, &f, &o, 5)); /* 5 outside the cone: angles 0, 180, 225, 270, 315 */
    CHECK(o.count == 5 && o.results[0].candidate_index == 6);
    CHECK_NEAR(o.results[0].position.x, 0, 1e-5);
    CHECK_NEAR(o.results[0].position.z, -4, 1e-5);
    CHECK_NEAR(o.results[0].score, 1, 1e-6);
    for (i = 1; i < 5; i++) {
        CHECK(o.results[i - 1].score >= o.results[i].score);
        if (o.results[i - 1].score == o.results[i].score)
            CHECK(o.results[i - 1].candidate_index < o.results[i].candidate_index);
    }
    CHECK(o.results[4].candidate_index == 0 || o.results[4].candidate_index == 4);
    argus_world_destroy(world);
}

/* A stand-in engine: the plane z = 5 between x = -2 and 2, y = 0 and 2, cast by hand. */
typedef struct Engine {
    uint32_t calls, rays, bad_rays, hits;
    int answer_nothing;
    float hit_distance; /* 0: the true distance; else reported as is (NaN, negative) */
} Engine;

static ArgusResult engine_cast(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    Engine *e = (Engine *)user_data;
    uint32_t i;
    e->calls++;
    for (i = 0; i < count; i++) {
        const ArgusRay *r = &rays[i];
        float t = r->direction.z > 1e-6f ? (5.0f - r->origin.z) / r->direction.z : -1.0f;
        float x = r->origin.x + r->direction.x * t, y = r->origin.y + r->direction.y * t;
        e->rays++;
        if (r->agent.index != 0 || r->target.index != 0 || r->layer_mask != 4) e->bad_rays++;
        hits[i].hit = !e->answer_nothing && t > 0 && t <= r->max_distance && fabsf(x) <= 2 && y >= 0 && y <= 2;
        hits[i].distance = hits[i].hit ? (e->hit_distance != 0.0f ? e->hit_distance : t) : 0.0f;
        e->hits += hits[i].hit;
    }
    return ARGUS_RESULT_OK;
}

static void engine_rays(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_ENGINE);
    ArgusCoverQuery q = lesson_cover_query();
    Engine e;
    Out o, untouched;
    memset(&e, 0, sizeof e);
    q.obstacle_mask = 4;
    reset(&untouched);
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_NO_RAY_BACKEND);
    CHECK(memcmp(&o, &untouched, sizeof o) == 0);
    CHECK_OK(argus_world_set_ray_callback(world, engine_cast, &e));
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && o.results[0].candidate_index == 0 && same(o.answer.position, spots[0]));
    CHECK(e.calls == 1 && e.rays == o.answer.rays_cast && e.rays == 2 && e.hits == 1 && e.bad_rays == 0);
    /* A hit must come with a finite distance >= 0, as for sight; otherwise nothing is written. */
    e.hit_distance = NAN;
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(memcmp(&o, &untouched, sizeof o) == 0);
    e.hit_distance = -1.0f;
    CHECK_RESULT(cover(world, &q, &o, 8), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(memcmp(&o, &untouched, sizeof o) == 0);
    e.hit_distance = 0.0f;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1);
    argus_world_destroy(world);

    /* A built-in world with a real wall: a set callback still answers (and here sees nothing). */
    world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    wall(world, v3(0, 1, 5), v3(2, 1, 0.2f));
    q.obstacle_mask = 4 | 1;
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1);
    memset(&e, 0, sizeof e);
    e.answer_nothing = 1;
    CHECK_OK(argus_world_set_ray_callback(world, engine_cast, &e));
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 0 && e.calls == 1 && same(o.answer.position, q.self_position));
    CHECK_OK(argus_world_set_ray_callback(world, NULL, NULL));
    CHECK_OK(cover(world, &q, &o, 8));
    CHECK(o.count == 1 && e.calls == 1);
    argus_world_destroy(world);
}

/* The engine's own copy of an axis-aligned box, cast by the slab method. */
typedef struct Box {
    ArgusVec3 lo, hi;
} Box;

static int box_blocks(const Box *b, const ArgusRay *r) {
    const float o[3] = {r->origin.x, r->origin.y, r->origin.z}, d[3] = {r->direction.x, r->direction.y, r->direction.z};
    const float lo[3] = {b->lo.x, b->lo.y, b->lo.z}, hi[3] = {b->hi.x, b->hi.y, b->hi.z};
    float t0 = 0.0f, t1 = r->max_distance;
    int k;
    for (k = 0; k < 3; k++) {
        if (fabsf(d[k]) < 1e-12f) {
            if (o[k] < lo[k] || o[k] > hi[k]) return 0;
        } else {
            float a = (lo[k] - o[k]) / d[k], c = (hi[k] - o[k]) / d[k];
            if (a > c) { float t = a; a = c; c = t; }
            if (a > t0) t0 = a;
            if (c < t1) t1 = c;
            if (t0 > t1) return 0;
        }
    }
    return 1;
}

static int same_results(const Out *a, const Out *b) {
    return a->count == b->count && memcmp(a->results, b->results, a->count * sizeof a->results[0]) == 0 &&
           same(a->answer.position, b->answer.position) && a->answer.found == b->answer.found;
}

/* Begin, cast every ray against `box`, finish. */
static ArgusResult cover_two_phase(ArgusWorld *w, const ArgusCoverQuery *q, const Box *box, Out *o, uint32_t *rays) {
    ArgusRayArray batch;
    ArgusRayHit hits[512];
    uint32_t i;
    ArgusResult r = argus_world_find_cover_begin(w, q, &batch);
    if (r != ARGUS_RESULT_OK) return r;
    CHECK(batch.count <= 512);
    for (i = 0; i < batch.count && i < 512; i++) {
        hits[i].hit = (uint32_t)box_blocks(box, &batch.items[i]);
        hits[i].distance = 1.0f;
        CHECK(batch.items[i].agent.index == 0 && batch.items[i].target.index == 0);
    }
    *rays = batch.count;
    reset(o);
    return argus_world_find_cover_finish(w, hits, batch.count, o->results, 8, &o->count, &o->answer);
}

static void two_phase(void) {
    ArgusWorld *world = new_world(ARGUS_RAY_BACKEND_BUILTIN);
    Box box = {{-2, 0, 4.8f}, {2, 2, 5.2f}};
    ArgusThreat threats[2];
    ArgusCoverQuery c = lesson_cover_query();
    ArgusFlankQuery f = argus_default_flank_query();
    ArgusRayArray batch;
    ArgusRayHit hits[2];
    float danger[49];
    Out want, got;
    uint32_t i, mode, rays = 0, needed = 0, compared = 0, found = 0;
    wall(world, v3(0, 1, 5), v3(2, 1, 0.2f));
    /* The lesson's scene, then a grid with two threats in both modes. */
    CHECK_OK(cover(world, &c, &want, 8));
    CHECK_OK(cover_two_phase(world, &c, &box, &got, &rays));
    CHECK(same_results(&want, &got) && rays == 2 && got.answer.rays_cast == 2);
    threats[0] = threat(v3(0, 0, 0), v3(0, 0, 1));
    threats[1] = threat(v3(3, 0, 1), v3(0, 0, 1));
    c.threats = threats;
    c.threat_count = 2;
    c.candidates.kind = ARGUS_CANDIDATE_KIND_GRID;
    c.candidates.center = v3(0, 0.5f, 7);
    c.candidates.spacing = 1.5f;
    c.candidates.half_count = 3;
    c.top_k = 4;
    for (i = 0; i < 49; i++) danger[i] = (float)((i * 7) % 5) * 0.3f;
    for (mode = 0; mode < 4; mode++) {
        /* Modes 2 and 3 add per-candidate danger, which the pending query must keep. */
        c.candidate_danger = mode < 2 ? NULL : danger;
        c.candidate_danger_count = mode < 2 ? 0 : 49;
        c.mode = mode % 2 == 0 ? ARGUS_COVER_MODE_HIDDEN_FROM_ALL : ARGUS_COVER_MODE_HIDDEN_FROM_MOST;
        CHECK_OK(cover(world, &c, &want, 8));
        CHECK_OK(cover_two_phase(world, &c, &box, &got, &rays));
        CHECK(same_results(&want, &got) && rays == 49 * 2 && got.answer.rays_cast == rays);
        compared++;
        found += want.count;
    }
    CHECK(compared == 4 && found >= 4);

    /* Finish / cancel without begin; a wrong count, a bad hit and a small buffer keep it pending. */
    c = lesson_cover_query();
    CHECK_RESULT(argus_world_find_cover_finish(world, hits, 2, got.results, 8, &got.count, &got.answer),
                 ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    CHECK_RESULT(argus_world_find_cover_cancel(world), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    CHECK_OK(argus_world_find_cover_begin(world, &c, &batch));
    CHECK(batch.count == 2 && batch.items != NULL);
    hits[0].hit = (uint32_t)box_blocks(&box, &batch.items[0]);
    hits[1].hit = (uint32_t)box_blocks(&box, &batch.items[1]);
    hits[0].distance = hits[1].distance = 1.0f;
    CHECK_RESULT(argus_world_find_cover_finish(world, hits, 1, got.results, 8, &got.count, &got.answer),
                 ARGUS_RESULT_INVALID_ARGUMENT);
    hits[0].distance = NAN;
    hits[0].hit = 1;
    CHECK_RESULT(argus_world_find_cover_finish(world, hits, 2, got.results, 8, &got.count, &got.answer),
                 ARGUS_RESULT_INVALID_ARGUMENT);
    hits[0].hit = (uint32_t)box_blocks(&box, &batch.items[0]);
    hits[0].distance = 1.0f;
    CHECK_RESULT(argus_world_find_cover_finish(world, hits, 2, NULL, 0, &needed, &got.answer),
                 ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == 1);
    reset(&got);
    CHECK_OK(argus_world_find_cover_finish(world, hits, 2, got.results, 8, &got.count, &got.answer));
    CHECK(got.count == 1 && same(got.answer.position, spots[0]));
    CHECK_RESULT(argus_world_find_cover_finish(world, hits, 2, got.results, 8, &got.count, &got.answer),
                 ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    CHECK_OK(argus_world_find_cover_begin(world, &c, &batch));
    CHECK_OK(argus_world_find_cover_cancel(world));
    CHECK_RESULT(argus_world_find_cover_cancel(world), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    argus_world_destroy(world);

    /* An engine-ray world without a callback still runs two-phase cover. */
    world = new_world(ARGUS_RAY_BACKEND_ENGINE);
    CHECK_RESULT(cover(world, &c, &want, 8), ARGUS_RESULT_NO_RAY_BACKEND);
    CHECK_OK(cover_two_phase(world, &c, &box, &got, &rays));
    CHECK(got.count == 1 && same(got.answer.position, spots[0]));

    /* Flank: no rays, so an engine-ray world without a callback answers in one call (ABI 3 has
     * no two-phase flank). */
    f.candidates.kind = ARGUS_CANDIDATE_KIND_RING;
    f.candidates.rings = 2;
    f.candidates.per_ring = 12;
    f.top_k = 6;
    CHECK_OK(flank(world, &f, &want, 8));
    CHECK(want.count == 6);
    argus_world_destroy(world);
}

int main(void) {
    cover_behind_a_wall();
    cover_avoids_danger();
    candidate_danger();
    flanking();
    ties_go_to_the_lower_index();
    top_k();
    engine_rays();
    two_phase();
    CHECK(argus_live_world_count() == 0);
    return check_report("tactics");
}
