/* Belief search through the C ABI: a guard set to search by belief chases a player who slips
   behind a wall, then keeps a belief of where the player can be (probabilities summing to 1 over
   the walk graph's nodes), walks to a search point where the belief holds probability, and is
   read back through every belief call; bad settings and calls are refused, changing nothing. */
#include <stdint.h>
#include <stdlib.h>

#include "argus.h"
#include "check.h"

static void step(ArgusWorld *w, int n) {
    for (int k = 0; k < n; k++) CHECK_OK(argus_world_step(w, 0.1f));
}

int main(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *w = NULL;
    CHECK_OK(argus_world_create(&wd, &w));
    ArgusOccluderDef od = argus_default_occluder_def();
    od.position = v3(12, 1.5f, 15);
    od.half_extents = v3(12, 1.5f, 0.3f);
    ArgusOccluderId wall;
    CHECK_OK(argus_occluder_create(w, &od, &wall));
    ArgusWalkGridDef gd = argus_default_walk_grid_def();
    gd.width = 60;
    gd.depth = 60;
    CHECK_OK(argus_world_set_walk_grid(w, &gd));

    ArgusAgentDef ad = argus_default_agent_def();
    CHECK(ad.brain.search == ARGUS_SEARCH_KIND_LAST_KNOWN_POSITION); /* the lesson's, by default */
    CHECK(ad.brain.share_belief == 1 && ad.brain.give_up_probability == 0.002f);
    ad.position = v3(5, 0, 6);
    ad.sight.view_radius = 15;
    ad.sight.view_angle = 120;
    ad.brain.search = ARGUS_SEARCH_KIND_BELIEF;
    ad.brain.search_duration = 30;
    ArgusAgentId guard;
    CHECK_OK(argus_agent_create(w, &ad, &guard));
    ArgusTargetDef td = argus_default_target_def();
    CHECK(td.top_speed == 1.4f);
    td.position = v3(6, 0, 11);
    ArgusTargetId player;
    CHECK_OK(argus_target_create(w, &td, &player));

    ArgusBeliefInfo info;
    uint8_t has = 7;
    CHECK_OK(argus_agent_get_belief_info(w, guard, &info, &has));
    CHECK(has == 0); /* idle: no belief yet */
    step(w, 5);
    ArgusAgentState state;
    CHECK_OK(argus_agent_get_state(w, guard, &state));
    CHECK(state.brain_state == ARGUS_BRAIN_STATE_CHASING);
    CHECK_OK(argus_target_set_pose(w, player, v3(20, 0, 24), v3(0, 0, 1)));
    step(w, 10);
    CHECK_OK(argus_agent_get_state(w, guard, &state));
    CHECK(state.brain_state == ARGUS_BRAIN_STATE_SEARCHING);

    CHECK_OK(argus_agent_get_belief_info(w, guard, &info, &has));
    CHECK(has == 1 && info.target.index == player.index && info.owner_team == 0 && info.owner_count == 1);
    CHECK(info.node_count == 3600 && info.peak > 0 && info.peak <= 1);
    CHECK(info.has_search_point == 1 && state.has_move_target == 1);
    CHECK(state.move_target.x == info.search_point.x && state.move_target.z == info.search_point.z);

    uint32_t n = 0;
    CHECK_RESULT(argus_agent_get_belief(w, guard, NULL, 0, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 3600);
    float *p = malloc(n * sizeof(float));
    CHECK_OK(argus_agent_get_belief(w, guard, p, n, &n));
    double total = 0;
    float peak = 0;
    for (uint32_t k = 0; k < n; k++) {
        CHECK(p[k] >= 0 && p[k] <= 1);
        total += p[k];
        if (p[k] > peak) peak = p[k];
    }
    CHECK_NEAR(total, 1.0, 1e-5);
    CHECK(peak == info.peak);
    float at = -1;
    CHECK_OK(argus_agent_get_belief_at(w, guard, info.search_point, &at));
    CHECK(at > 0);
    CHECK_OK(argus_agent_get_belief_at(w, guard, v3(500, 0, 500), &at));
    CHECK(at == 0); /* off the graph */

    ArgusSearchPoint points[4];
    CHECK_OK(argus_agent_get_search_points(w, guard, points, 4, &n));
    CHECK(n >= 1 && n <= 4);
    for (uint32_t k = 1; k < n; k++) CHECK(points[k].probability <= points[k - 1].probability);

    /* Bad input: refused, nothing changed. */
    ArgusBrainSettings brain;
    CHECK_OK(argus_agent_get_brain(w, guard, &brain));
    ArgusBrainSettings bad = brain;
    bad.search = 7;
    CHECK_RESULT(argus_agent_set_brain(w, guard, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = brain;
    bad.give_up_probability = 2;
    CHECK_RESULT(argus_agent_set_brain(w, guard, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusBrainSettings now;
    CHECK_OK(argus_agent_get_brain(w, guard, &now));
    CHECK(now.search == ARGUS_SEARCH_KIND_BELIEF && now.give_up_probability == brain.give_up_probability);
    td.top_speed = -1;
    ArgusTargetId refused = {0};
    CHECK_RESULT(argus_target_create(w, &td, &refused), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusAgentId nobody = {999, 1, 1};
    CHECK_RESULT(argus_agent_get_belief_info(w, nobody, &info, &has), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_get_belief_info(w, guard, NULL, &has), ARGUS_RESULT_INVALID_ARGUMENT);

    /* A replaced walk graph drops the belief. */
    CHECK_OK(argus_world_set_walk_grid(w, &gd));
    CHECK_OK(argus_agent_get_belief_info(w, guard, &info, &has));
    CHECK(has == 0);

    free(p);
    argus_world_destroy(w);
    return check_report("belief.c");
}
