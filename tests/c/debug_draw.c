/* argus_world_debug_draw through C: what the vision-cone card's picture is made of. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define EPS 1e-4

static ArgusVec3 EYE; /* the guard's eye, (0, 1.6, 0) */

typedef struct Scene {
    ArgusWorld *w;
    ArgusAgentId guard;
    ArgusTargetId seen, hidden, outside;
    ArgusOccluderId wall;
} Scene;

/* A guard at the origin facing +Z; `seen` straight ahead, `hidden` behind a wall, `outside`
 * in range but far off to the side. */
static void scene_make(Scene *s, uint32_t backend) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    wd.ray_backend = backend;
    CHECK_OK(argus_world_create(&wd, &s->w));
    ad.sight.rate_hz = 0.0f;
    CHECK_OK(argus_agent_create(s->w, &ad, &s->guard));
    td.position = v3(0, 0, 5);
    CHECK_OK(argus_target_create(s->w, &td, &s->seen));
    td.position = v3(3, 0, 8);
    CHECK_OK(argus_target_create(s->w, &td, &s->hidden));
    td.position = v3(-8, 0, 1);
    CHECK_OK(argus_target_create(s->w, &td, &s->outside));
    od.position = v3(3, 1, 5);
    od.half_extents = v3(2, 2, 0.25f);
    CHECK_OK(argus_occluder_create(s->w, &od, &s->wall));
}

static int near3(ArgusVec3 a, ArgusVec3 b, double eps) {
    return fabs(a.x - b.x) <= eps && fabs(a.y - b.y) <= eps && fabs(a.z - b.z) <= eps;
}

static ArgusDebugDraw draw(ArgusWorld *w, uint32_t flags, ArgusAgentId agent) {
    ArgusDebugDrawOptions o = argus_default_debug_draw_options();
    ArgusDebugDraw d;
    memset(&d, 0, sizeof d);
    o.flags = flags;
    o.agent = agent;
    CHECK_OK(argus_world_debug_draw(w, &o, &d));
    CHECK((d.line_count == 0) == (d.lines == NULL));
    CHECK((d.point_count == 0) == (d.points == NULL));
    return d;
}

static const ArgusAgentId ALL_AGENTS = {0, 0, 0};

static uint32_t count_lines(const ArgusDebugDraw *d, uint32_t color) {
    uint32_t i, n = 0;
    for (i = 0; i < d->line_count; i++) n += d->lines[i].color == color;
    return n;
}

static const ArgusDebugPoint *find_point(const ArgusDebugDraw *d, ArgusVec3 at, uint32_t color) {
    uint32_t i;
    for (i = 0; i < d->point_count; i++) {
        if (d->points[i].color == color && near3(d->points[i].position, at, EPS)) return &d->points[i];
    }
    return NULL;
}

static void defaults(void) {
    ArgusDebugDrawOptions o = argus_default_debug_draw_options();
    CHECK(o.flags == ARGUS_DRAW_ALL);
    CHECK(o.agent.index == 0 && o.agent.generation == 0);
    CHECK(o.circle_segments == 32);
    CHECK(ARGUS_DRAW_ALL == (ARGUS_DRAW_OCCLUDERS | ARGUS_DRAW_CONES | ARGUS_DRAW_SIGHT | ARGUS_DRAW_MEMORY |
                             ARGUS_DRAW_HEARING | ARGUS_DRAW_MOVE_TARGETS));
}

static void sight_picture(void) {
    Scene s;
    ArgusDebugDraw d;
    ArgusSightResult blocked;
    const ArgusVec3 seen_point = v3(0, 1.3f, 5), hidden_point = v3(3, 1.3f, 8), outside_point = v3(-8, 1.3f, 1);
    const ArgusDebugPoint *p;
    uint32_t i;
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    CHECK_OK(argus_agent_can_see(s.w, s.guard, s.hidden, &blocked));
    CHECK(blocked.seen == 0 && blocked.point_status[0] == ARGUS_POINT_STATUS_BLOCKED);
    CHECK_NEAR(blocked.point_hits[2], 4.75, EPS); /* the wall's near face */

    d = draw(s.w, ARGUS_DRAW_SIGHT, ALL_AGENTS);
    /* Two rays: green to the seen target's check point, red up to the wall. */
    CHECK(d.line_count == 2);
    CHECK(count_lines(&d, ARGUS_COLOR_SEEN) == 1 && count_lines(&d, ARGUS_COLOR_BLOCKED) == 1);
    for (i = 0; i < d.line_count; i++) {
        const ArgusDebugLine *l = &d.lines[i];
        CHECK(near3(l->a, EYE, EPS));
        if (l->color == ARGUS_COLOR_SEEN) CHECK(near3(l->b, seen_point, EPS));
        if (l->color == ARGUS_COLOR_BLOCKED) {
            CHECK(near3(l->b, v3(blocked.point_hits[0], blocked.point_hits[1], blocked.point_hits[2]), EPS));
            CHECK_NEAR(l->b.z, 4.75, EPS);
        }
    }
    /* Four markers: the hit dot, and one per target by its best status. */
    CHECK(d.point_count == 4);
    p = find_point(&d, seen_point, ARGUS_COLOR_SEEN);
    CHECK(p != NULL && p->style == ARGUS_POINT_STYLE_SOLID);
    p = find_point(&d, v3(blocked.point_hits[0], blocked.point_hits[1], blocked.point_hits[2]), ARGUS_COLOR_BLOCKED);
    CHECK(p != NULL && p->style == ARGUS_POINT_STYLE_SOLID && p->radius < 0.3f);
    p = find_point(&d, hidden_point, ARGUS_COLOR_HIDDEN);
    CHECK(p != NULL && p->style == ARGUS_POINT_STYLE_SOLID);
    p = find_point(&d, outside_point, ARGUS_COLOR_OUTSIDE);
    CHECK(p != NULL && p->style == ARGUS_POINT_STYLE_WIRE);
    /* Nothing else is drawn in those colours. */
    CHECK(find_point(&d, hidden_point, ARGUS_COLOR_SEEN) == NULL);
    CHECK(find_point(&d, seen_point, ARGUS_COLOR_HIDDEN) == NULL);

    /* Moving the wall away turns the red ray green. */
    {
        ArgusQuat identity = {0, 0, 0, 1};
        CHECK_OK(argus_occluder_set_pose(s.w, s.wall, v3(50, 1, 5), identity));
        d = draw(s.w, ARGUS_DRAW_SIGHT, ALL_AGENTS);
        CHECK(count_lines(&d, ARGUS_COLOR_SEEN) == 2 && count_lines(&d, ARGUS_COLOR_BLOCKED) == 0);
        CHECK(find_point(&d, hidden_point, ARGUS_COLOR_SEEN) != NULL);
    }
    argus_world_destroy(s.w);
}

static void occluders_only(void) {
    Scene s;
    ArgusDebugDraw d;
    uint32_t i, color;
    int corners_ok = 1;
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    d = draw(s.w, ARGUS_DRAW_OCCLUDERS, ALL_AGENTS);
    CHECK(d.line_count == 12); /* one box: 12 edges */
    CHECK(d.point_count == 0 && d.points == NULL);
    color = d.line_count ? d.lines[0].color : 0;
    for (i = 0; i < d.line_count; i++) {
        const ArgusDebugLine *l = &d.lines[i];
        const ArgusVec3 *ends[2];
        int e;
        ends[0] = &l->a;
        ends[1] = &l->b;
        CHECK(l->color == color);
        for (e = 0; e < 2; e++) { /* every end is a corner of the box at (3,1,5) ± (2,2,0.25) */
            corners_ok &= fabs(fabs(ends[e]->x - 3.0) - 2.0) < EPS;
            corners_ok &= fabs(fabs(ends[e]->y - 1.0) - 2.0) < EPS;
            corners_ok &= fabs(fabs(ends[e]->z - 5.0) - 0.25) < EPS;
        }
    }
    CHECK(corners_ok);
    CHECK(color != ARGUS_COLOR_SEEN && color != ARGUS_COLOR_BLOCKED);
    /* A second box: 24. */
    {
        ArgusOccluderDef od = argus_default_occluder_def();
        ArgusOccluderId id;
        od.position = v3(-5, 0, -5);
        CHECK_OK(argus_occluder_create(s.w, &od, &id));
        d = draw(s.w, ARGUS_DRAW_OCCLUDERS, ALL_AGENTS);
        CHECK(d.line_count == 24);
        CHECK_OK(argus_occluder_destroy(s.w, id));
        d = draw(s.w, ARGUS_DRAW_OCCLUDERS, ALL_AGENTS);
        CHECK(d.line_count == 12);
    }
    /* No flags: nothing at all. */
    d = draw(s.w, 0, ALL_AGENTS);
    CHECK(d.line_count == 0 && d.point_count == 0);
    argus_world_destroy(s.w);
}

static void cones_and_segments(void) {
    Scene s;
    ArgusDebugDrawOptions o = argus_default_debug_draw_options();
    ArgusDebugDraw d;
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    /* A 90-degree cone with 32 segments per circle: an 8-segment arc, two edges, a facing line. */
    d = draw(s.w, ARGUS_DRAW_CONES, ALL_AGENTS);
    CHECK(d.line_count == 8 + 2 + 1);
    CHECK(count_lines(&d, ARGUS_COLOR_CONE) == 8 + 2);
    CHECK(d.point_count == 1 && near3(d.points[0].position, v3(0, 0, 0), EPS)); /* the guard */
    /* circle_segments below 3 is raised to 3: one arc segment for a quarter circle. */
    o.flags = ARGUS_DRAW_CONES;
    o.circle_segments = 0;
    CHECK_OK(argus_world_debug_draw(s.w, &o, &d));
    CHECK(d.line_count == 1 + 2 + 1);
    o.circle_segments = 128;
    CHECK_OK(argus_world_debug_draw(s.w, &o, &d));
    CHECK(d.line_count == 32 + 2 + 1);
    argus_world_destroy(s.w);
}

static void agent_filter(void) {
    Scene s;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusAgentId other, stale;
    ArgusDebugDrawOptions o = argus_default_debug_draw_options();
    ArgusDebugDraw d;
    const ArgusVec3 other_pos = v3(0, 0, 12), other_eye = v3(0, 1.6f, 12);
    uint32_t i;
    int from_guard = 0, from_other = 0;
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    /* A second guard behind the seen target, looking back: it sees both `seen` and `hidden`
     * (the wall is not between it and either). */
    ad.position = other_pos;
    ad.forward = v3(0, 0, -1);
    ad.sight.rate_hz = 0.0f;
    CHECK_OK(argus_agent_create(s.w, &ad, &other));

    d = draw(s.w, ARGUS_DRAW_CONES | ARGUS_DRAW_SIGHT, ALL_AGENTS);
    CHECK(find_point(&d, v3(0, 0, 0), 0xFFFFFFFFu) != NULL && find_point(&d, other_pos, 0xFFFFFFFFu) != NULL);
    for (i = 0; i < d.line_count; i++) {
        if (d.lines[i].color != ARGUS_COLOR_SEEN) continue;
        from_guard += near3(d.lines[i].a, EYE, EPS);
        from_other += near3(d.lines[i].a, other_eye, EPS);
    }
    CHECK(from_guard == 1 && from_other == 2);

    d = draw(s.w, ARGUS_DRAW_CONES | ARGUS_DRAW_SIGHT, other);
    CHECK(find_point(&d, v3(0, 0, 0), 0xFFFFFFFFu) == NULL);
    CHECK(find_point(&d, other_pos, 0xFFFFFFFFu) != NULL);
    for (i = 0; i < d.line_count; i++) CHECK(!near3(d.lines[i].a, EYE, EPS)); /* nothing from the first guard */
    CHECK(count_lines(&d, ARGUS_COLOR_SEEN) == 2 && count_lines(&d, ARGUS_COLOR_BLOCKED) == 0);

    d = draw(s.w, ARGUS_DRAW_CONES | ARGUS_DRAW_SIGHT, s.guard);
    CHECK(find_point(&d, other_pos, 0xFFFFFFFFu) == NULL);
    CHECK(count_lines(&d, ARGUS_COLOR_SEEN) == 1 && count_lines(&d, ARGUS_COLOR_BLOCKED) == 1);

    /* A destroyed agent as the filter: refused, and the previous picture stays readable. */
    CHECK_OK(argus_agent_create(s.w, &ad, &stale));
    CHECK_OK(argus_agent_destroy(s.w, stale));
    o.agent = stale;
    {
        ArgusDebugDraw before = d, after = d;
        CHECK_RESULT(argus_world_debug_draw(s.w, &o, &after), ARGUS_RESULT_INVALID_ID);
        CHECK(after.lines == before.lines && after.line_count == before.line_count);
        CHECK(count_lines(&d, ARGUS_COLOR_SEEN) == 1);
    }
    argus_world_destroy(s.w);
}

static void buffers_stay_valid(void) {
    Scene s;
    ArgusDebugDraw d, d2;
    ArgusDebugLine *lines;
    ArgusDebugPoint *points;
    ArgusSightResult r;
    ArgusPerceptArray percepts;
    ArgusQuat identity = {0, 0, 0, 1};
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    d = draw(s.w, ARGUS_DRAW_ALL, ALL_AGENTS);
    CHECK(d.line_count > 12 && d.point_count >= 4);
    lines = (ArgusDebugLine *)malloc(d.line_count * sizeof *lines);
    points = (ArgusDebugPoint *)malloc(d.point_count * sizeof *points);
    memcpy(lines, d.lines, d.line_count * sizeof *lines);
    memcpy(points, d.points, d.point_count * sizeof *points);
    /* Steps, moves and queries do not touch the picture. */
    CHECK_OK(argus_world_step(s.w, 0.1f));
    CHECK_OK(argus_world_step(s.w, 0.1f));
    CHECK_OK(argus_target_set_pose(s.w, s.seen, v3(1, 0, 4), v3(0, 0, 1)));
    CHECK_OK(argus_occluder_set_pose(s.w, s.wall, v3(30, 0, 30), identity));
    CHECK_OK(argus_agent_can_see(s.w, s.guard, s.hidden, &r));
    CHECK_OK(argus_world_get_percepts(s.w, &percepts));
    CHECK(memcmp(lines, d.lines, d.line_count * sizeof *lines) == 0);
    CHECK(memcmp(points, d.points, d.point_count * sizeof *points) == 0);
    /* The next draw replaces it. */
    d2 = draw(s.w, ARGUS_DRAW_SIGHT, ALL_AGENTS);
    CHECK(d2.line_count == 2 && count_lines(&d2, ARGUS_COLOR_SEEN) == 2);
    free(lines);
    free(points);
    argus_world_destroy(s.w);
}

static void memory_markers(void) {
    Scene s;
    ArgusDebugDraw d;
    uint32_t i;
    int found = 0;
    scene_make(&s, ARGUS_RAY_BACKEND_BUILTIN);
    CHECK_OK(argus_agent_remember(s.w, s.guard, s.outside, v3(-6, 0, -6), 0.5f));
    d = draw(s.w, ARGUS_DRAW_MEMORY, ALL_AGENTS);
    for (i = 0; i < d.point_count; i++) {
        if (near3(d.points[i].position, v3(-6, 0, -6), EPS)) {
            found++;
            CHECK((d.points[i].color & 0xFFu) == 128u); /* alpha = confidence */
            CHECK(d.points[i].style == ARGUS_POINT_STYLE_WIRE);
        }
    }
    CHECK(found == 1);
    argus_world_destroy(s.w);
}

static void engine_world_without_callback(void) {
    Scene s;
    ArgusDebugDraw d;
    scene_make(&s, ARGUS_RAY_BACKEND_ENGINE);
    d = draw(s.w, ARGUS_DRAW_SIGHT, ALL_AGENTS);
    CHECK(d.line_count == 0); /* no rays without someone to cast them */
    CHECK(d.point_count == 3 && count_lines(&d, ARGUS_COLOR_SEEN) == 0);
    CHECK(find_point(&d, v3(0, 1.3f, 5), ARGUS_COLOR_OUTSIDE) != NULL);
    argus_world_destroy(s.w);
}

int main(void) {
    EYE = v3(0, 1.6f, 0);
    defaults();
    sight_picture();
    occluders_only();
    cones_and_segments();
    agent_filter();
    buffers_stay_valid();
    memory_markers();
    engine_world_without_callback();
    CHECK(argus_live_world_count() == 0);
    return check_report("debug_draw.c");
}
