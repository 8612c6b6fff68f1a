/* Engine rays through the C ABI: the callback and the two-phase step give the built-in answers. */
#include <string.h>

#include "argus.h"
#include "check.h"

/* A stand-in for an engine: one wall, the plane z = 4 between x = -2 and 2, cast by hand. */
typedef struct Engine {
    uint32_t calls;
    uint32_t rays_seen;
} Engine;

static ArgusRayHit cast_one(const ArgusRay *ray) {
    ArgusRayHit hit;
    hit.hit = 0;
    hit.distance = 0.0f;
    if (ray->direction.z > 1e-6f) {
        float t = (4.0f - ray->origin.z) / ray->direction.z;
        float x = ray->origin.x + ray->direction.x * t;
        if (t > 0.0f && t <= ray->max_distance && x >= -2.0f && x <= 2.0f) {
            hit.hit = 1;
            hit.distance = t;
        }
    }
    return hit;
}

static ArgusResult engine_cast(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    Engine *engine = (Engine *)user_data;
    uint32_t i;
    engine->calls++;
    engine->rays_seen += count;
    for (i = 0; i < count; i++) hits[i] = cast_one(&rays[i]);
    return ARGUS_RESULT_OK;
}

static ArgusWorld *engine_world(ArgusAgentId *guard, ArgusTargetId *hidden, ArgusTargetId *clear) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusWorld *world = NULL;
    ArgusAgentDef a = argus_default_agent_def();
    ArgusTargetDef t = argus_default_target_def();
    def.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&def, &world));
    a.sight.rate_hz = 0.0f;
    CHECK_OK(argus_agent_create(world, &a, guard));
    t.position = v3(0, 0, 8);
    CHECK_OK(argus_target_create(world, &t, hidden));
    t.position = v3(5, 0, 7);
    CHECK_OK(argus_target_create(world, &t, clear));
    return world;
}

static void callback_mode(void) {
    ArgusAgentId guard;
    ArgusTargetId hidden, clear;
    ArgusWorld *world = engine_world(&guard, &hidden, &clear);
    Engine engine;
    ArgusPerceptArray percepts;
    ArgusSightResult r;
    memset(&engine, 0, sizeof engine);
    CHECK_RESULT(argus_world_step(world, 0.1f), ARGUS_RESULT_NO_RAY_BACKEND);
    CHECK_RESULT(argus_agent_can_see(world, guard, clear, &r), ARGUS_RESULT_NO_RAY_BACKEND);
    CHECK_OK(argus_world_set_ray_callback(world, engine_cast, &engine));
    CHECK_OK(argus_world_step(world, 0.1f));
    CHECK(engine.calls == 1); /* one batch per step */
    CHECK(engine.rays_seen == 2);
    CHECK_OK(argus_world_get_percepts(world, &percepts));
    CHECK(percepts.count == 1 && percepts.items[0].target.index == clear.index);
    CHECK_OK(argus_agent_can_see(world, guard, hidden, &r));
    CHECK(r.seen == 0 && r.point_status[0] == ARGUS_POINT_STATUS_BLOCKED);
    CHECK_NEAR(r.point_hits[2], 4.0, 1e-4);
    argus_world_destroy(world);
}

static void two_phase_mode(void) {
    ArgusAgentId guard;
    ArgusTargetId hidden, clear;
    ArgusWorld *world = engine_world(&guard, &hidden, &clear);
    ArgusRayArray rays;
    ArgusRayHit hits[8];
    ArgusPerceptArray percepts;
    double time = -1.0;
    uint32_t i;
    CHECK_OK(argus_world_step_begin(world, 0.1f, &rays));
    CHECK(rays.count == 2);
    for (i = 0; i < rays.count && i < 8; i++) {
        CHECK(rays.items[i].agent.index == guard.index);
        CHECK(rays.items[i].layer_mask == 0xFFFFFFFFu);
        hits[i] = cast_one(&rays.items[i]);
    }
    /* While rays are out the world refuses changes and a wrong count. */
    CHECK_RESULT(argus_target_set_pose(world, clear, v3(0, 0, 1), v3(0, 0, 1)), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK_RESULT(argus_world_step_finish(world, hits, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_get_time(world, &time));
    CHECK(time == 0.0);
    CHECK_OK(argus_world_step_finish(world, hits, rays.count));
    CHECK_OK(argus_world_get_time(world, &time));
    CHECK_NEAR(time, 0.1, 1e-6);
    CHECK_OK(argus_world_get_percepts(world, &percepts));
    CHECK(percepts.count == 1 && percepts.items[0].target.index == clear.index);
    CHECK_RESULT(argus_world_step_finish(world, hits, 0), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    /* Cancel leaves the world as it was. */
    CHECK_OK(argus_world_step_begin(world, 0.1f, &rays));
    CHECK_OK(argus_world_step_cancel(world));
    CHECK_OK(argus_world_get_time(world, &time));
    CHECK_NEAR(time, 0.1, 1e-6);
    CHECK_RESULT(argus_world_step_cancel(world), ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    argus_world_destroy(world);
}

int main(void) {
    callback_mode();
    two_phase_mode();
    return check_report("engine_rays.c");
}
