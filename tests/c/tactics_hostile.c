/* Tactical queries through the C ABI, hostile input: NULL pointers, cookie 0, bad counts,
 * NaN, unknown kinds and modes, stale map ids, bad layers. Every refusal returns the exact code
 * and writes nothing: not the results, not the count, not the answer. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "argus.h"
#include "check.h"

typedef struct Out {
    ArgusTacticalResult results[4];
    uint32_t count;
    ArgusTacticalAnswer answer;
} Out;

static ArgusWorld *world;
static Out out, blank;
static ArgusThreat threats[1];
static ArgusVec3 points[3];

static ArgusResult cover(const ArgusCoverQuery *q) {
    memset(&out, 0xAB, sizeof out);
    return argus_world_find_cover(world, q, out.results, 4, &out.count, &out.answer);
}

static ArgusResult flank(const ArgusFlankQuery *q) {
    memset(&out, 0xAB, sizeof out);
    return argus_world_find_flank(world, q, out.results, 4, &out.count, &out.answer);
}

/* Refused with `expected`, with an explanation and without a single byte written. */
#define REFUSED(expr, expected)                                \
    do {                                                       \
        CHECK_RESULT(expr, expected);                          \
        CHECK(memcmp(&out, &blank, sizeof out) == 0);          \
        CHECK(argus_world_last_error(world)[0] != 0);          \
    } while (0)

/* A good cover query: the spot behind the wall is found. */
static ArgusCoverQuery good_cover(void) {
    ArgusCoverQuery q = argus_default_cover_query();
    q.threats = threats;
    q.threat_count = 1;
    q.self_position = v3(3, 0, 8);
    q.candidates.points = points;
    q.candidates.point_count = 3;
    q.top_k = 2;
    return q;
}

static ArgusFlankQuery good_flank(void) {
    ArgusFlankQuery q = argus_default_flank_query();
    q.candidates.points = points;
    q.candidates.point_count = 3;
    return q;
}

static void pointers_and_cookies(void) {
    ArgusCoverQuery c = good_cover();
    ArgusFlankQuery f = good_flank();
    memset(&out, 0xAB, sizeof out);
    CHECK_RESULT(argus_world_find_cover(NULL, &c, out.results, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_find_flank(NULL, &f, out.results, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(memcmp(&out, &blank, sizeof out) == 0);
    REFUSED(argus_world_find_cover(world, NULL, out.results, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_cover(world, &c, out.results, 4, NULL, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_cover(world, &c, out.results, 4, &out.count, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_cover(world, &c, NULL, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_flank(world, NULL, out.results, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_flank(world, &f, out.results, 4, NULL, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_flank(world, &f, out.results, 4, &out.count, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_flank(world, &f, NULL, 4, &out.count, &out.answer), ARGUS_RESULT_INVALID_ARGUMENT);
    {
        /* The two-phase calls check the same pointers and the same query; a refused begin
         * leaves nothing pending. */
        ArgusRayArray rays, blank_rays;
        ArgusRayHit hit;
        memset(&rays, 0xCD, sizeof rays);
        blank_rays = rays;
        memset(&hit, 0, sizeof hit);
        CHECK_RESULT(argus_world_find_cover_begin(NULL, &c, &rays), ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK_RESULT(argus_world_find_cover_cancel(NULL), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(argus_world_find_cover_begin(world, NULL, &rays), ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(argus_world_find_cover_begin(world, &c, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
        c.threat_count = 0;
        REFUSED(argus_world_find_cover_begin(world, &c, &rays), ARGUS_RESULT_INVALID_ARGUMENT);
        c.threat_count = 1;
        CHECK(memcmp(&rays, &blank_rays, sizeof rays) == 0);
        CHECK_RESULT(argus_world_find_cover_cancel(world), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
        CHECK_OK(argus_world_find_cover_begin(world, &c, &rays));
        CHECK(rays.count == 3);
        REFUSED(argus_world_find_cover_finish(world, NULL, 3, out.results, 4, &out.count, &out.answer),
                ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(argus_world_find_cover_finish(world, &hit, 4000000000u, out.results, 4, &out.count, &out.answer),
                ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(argus_world_find_cover_finish(world, &hit, 3, out.results, 4, NULL, &out.answer),
                ARGUS_RESULT_INVALID_ARGUMENT);
        REFUSED(argus_world_find_cover_finish(world, &hit, 3, out.results, 4, &out.count, NULL),
                ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK_OK(argus_world_find_cover_cancel(world));
    }
    c.internal_cookie = 0;
    REFUSED(cover(&c), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    f.internal_cookie = 0;
    REFUSED(flank(&f), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    /* A struct from memset, never initialised. */
    memset(&c, 0, sizeof c);
    REFUSED(cover(&c), ARGUS_RESULT_DEF_NOT_INITIALIZED);
}

static void counts(void) {
    ArgusCoverQuery c = good_cover();
    ArgusFlankQuery f = good_flank();
    c.threats = NULL;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.threat_count = 0;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.threat_count = ARGUS_MAX_THREATS + 1; /* refused before reading past the one threat */
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.threat_count = 0xFFFFFFFFu;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.candidates.points = NULL;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.candidates.point_count = ARGUS_MAX_CANDIDATES + 1;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    f.candidates.point_count = 0xFFFFFFFFu;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    f = good_flank();
    f.candidates.kind = ARGUS_CANDIDATE_KIND_GRID;
    f.candidates.half_count = 100000; /* (2 * 100000 + 1)^2 candidates > ARGUS_MAX_CANDIDATES */
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.top_k = 0;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    f = good_flank();
    f.top_k = 0;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
}

static void numbers(void) {
    ArgusCoverQuery c = good_cover();
    ArgusFlankQuery f = good_flank();
    ArgusThreat bad[1];
    c.self_position.x = NAN;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    bad[0] = threats[0];
    bad[0].eye.y = INFINITY;
    c.threats = bad;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.danger_weight = NAN;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.max_travel = -1;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.probe_offset.z = NAN;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c = good_cover();
    c.mode = 7;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.mode = ARGUS_COVER_MODE_HIDDEN_FROM_MOST;
    c.candidates.kind = 9;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.candidates.kind = ARGUS_CANDIDATE_KIND_GRID;
    c.candidates.plane = 5;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.candidates.plane = ARGUS_PLANE_XZ;
    c.candidates.spacing = 0;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.candidates.kind = ARGUS_CANDIDATE_KIND_RING;
    c.candidates.outer_radius = 1; /* below the inner radius (2) */
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.candidates.outer_radius = 8;
    c.candidates.rings = 0;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    c.candidates.rings = 2;
    c.candidates.center.y = NAN;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);

    points[1].z = NAN; /* one bad caller point */
    c = good_cover();
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    points[1].z = 6;
    f.threat.forward = v3(0, 0, 0); /* no facing */
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    f = good_flank();
    f.threat.position.x = NAN;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    f = good_flank();
    f.max_facing_dot = NAN;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    f = good_flank();
    f.facing_weight = INFINITY;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
}

static void maps(void) {
    ArgusCoverQuery c = good_cover();
    ArgusFlankQuery f = good_flank();
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusInfluenceMapId live, stale, forged;
    CHECK_OK(argus_influence_map_create(world, &def, &live));
    CHECK_OK(argus_influence_map_create(world, &def, &stale));
    CHECK_OK(argus_influence_map_destroy(world, stale));
    forged = live;
    forged.index += 5;
    c.map = stale;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ID);
    c.map = forged;
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ID);
    f.map = stale;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ID);
    c.map = live;
    c.map_layer = 1; /* the map has one layer */
    REFUSED(cover(&c), ARGUS_RESULT_INVALID_ARGUMENT);
    f.map = live;
    f.map_layer = 1;
    REFUSED(flank(&f), ARGUS_RESULT_INVALID_ARGUMENT);
    c.map_layer = 0;
    CHECK_OK(cover(&c));
    CHECK(out.count == 1 && out.results[0].candidate_index == 0);
}

int main(void) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusOccluderDef wall = argus_default_occluder_def();
    ArgusOccluderId wall_id;
    ArgusCoverQuery c;
    ArgusFlankQuery f;
    memset(&blank, 0xAB, sizeof blank);
    CHECK_OK(argus_world_create(&def, &world));
    wall.position = v3(0, 1, 5);
    wall.half_extents = v3(2, 1, 0.2f);
    CHECK_OK(argus_occluder_create(world, &wall, &wall_id));
    threats[0].position = v3(0, 0, 0);
    threats[0].eye = v3(0, 1.6f, 0);
    threats[0].forward = v3(0, 0, 1);
    points[0] = v3(0, 0.5f, 6);   /* hidden */
    points[1] = v3(4, 0.5f, 6);   /* open */
    points[2] = v3(0, 0.5f, -6);  /* open, behind the threat */

    pointers_and_cookies();
    counts();
    numbers();
    maps();

    /* After all that the world still answers. */
    c = good_cover();
    CHECK_OK(cover(&c));
    CHECK(out.count == 1 && out.results[0].candidate_index == 0 && out.answer.found == 1);
    CHECK(argus_world_last_error(world)[0] == 0);
    f = good_flank();
    CHECK_OK(flank(&f));
    CHECK(out.count == 1 && out.results[0].candidate_index == 2);
    argus_world_destroy(world);
    CHECK(argus_live_world_count() == 0);
    return check_report("tactics_hostile");
}
