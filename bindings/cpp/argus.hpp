// argus.hpp: a thin, header-only C++17 RAII wrapper over argus.h.
//
//   argus::World world;                                  // checks the ABI, owns the world
//   argus::AgentDef guard;                               // filled by argus_default_agent_def()
//   argus::AgentId id = world.create_agent(guard);       // throws argus::Error on failure
//   world.step(0.1f);
//   for (const ArgusPercept& p : world.percepts()) { ... }
//
// Every operation has a throwing form (`step`) and a non-throwing one (`try_step`) returning
// argus::Result<T>, for engines built without exceptions. Without exceptions, calling
// Result::value() on a failure prints the message and aborts.
//
// Ownership and lifetimes are argus.h's: spans returned by percepts(), step_begin() and
// debug_draw() point into the world and stay valid until the next step (or the next debug draw,
// or finish/cancel) or the world's destruction.
#ifndef ARGUS_HPP
#define ARGUS_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "argus.h"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define ARGUS_HPP_EXCEPTIONS 1
#else
#define ARGUS_HPP_EXCEPTIONS 0
#endif

namespace argus {

/// The stable name of a result code, e.g. "ARGUS_RESULT_INVALID_ID".
inline const char *result_name(ArgusResult code) noexcept { return argus_result_name(static_cast<uint32_t>(code)); }

#if ARGUS_HPP_EXCEPTIONS
/// What every throwing call throws: the result code and a message (the world's last_error).
class Error : public std::runtime_error {
public:
    Error(ArgusResult code, const std::string &message) : std::runtime_error(message), code_(code) {}
    /// The ArgusResult of the failed call.
    ArgusResult code() const noexcept { return code_; }

private:
    ArgusResult code_;
};
#endif

/// The one place a failure becomes an exception: throws argus::Error unless `code` is OK
/// (without exceptions: prints `message` and aborts).
inline void check(ArgusResult code, const std::string &message) {
    if (code == ARGUS_RESULT_OK) return;
#if ARGUS_HPP_EXCEPTIONS
    throw Error(code, message);
#else
    std::fprintf(stderr, "argus: %s\n", message.c_str());
    std::abort();
#endif
}

namespace detail {
/// "ARGUS_RESULT_X: <the world's last error>", read right after the failed call.
inline std::string message(ArgusResult code, const ArgusWorld *world) {
    std::string text = result_name(code);
    const char *why = argus_world_last_error(world);
    if (why != nullptr && *why != '\0') return text + ": " + why;
    return text + (world == nullptr ? ": the world is null (moved from?)" : "");
}
} // namespace detail

/// A value or a failure (expected-style): test ok() before value(), or let value() throw.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(ArgusResult code, std::string message) : code_(code), message_(std::move(message)) {}
    /// True on success.
    bool ok() const noexcept { return code_ == ARGUS_RESULT_OK; }
    explicit operator bool() const noexcept { return ok(); }
    /// The failure's code (ARGUS_RESULT_OK on success).
    ArgusResult error() const noexcept { return code_; }
    /// The failure's message ("" on success).
    const std::string &message() const noexcept { return message_; }
    /// The value; on failure goes through check() (throws argus::Error).
    T &value() & { check(code_, message_); return *value_; }
    const T &value() const & { check(code_, message_); return *value_; }
    T &&value() && { check(code_, message_); return std::move(*value_); }

private:
    std::optional<T> value_;
    ArgusResult code_ = ARGUS_RESULT_OK;
    std::string message_;
};

/// Success or a failure, for calls without a value.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(ArgusResult code, std::string message) : code_(code), message_(std::move(message)) {}
    bool ok() const noexcept { return code_ == ARGUS_RESULT_OK; }
    explicit operator bool() const noexcept { return ok(); }
    ArgusResult error() const noexcept { return code_; }
    const std::string &message() const noexcept { return message_; }
    /// Throws argus::Error on failure (for symmetry with Result<T>::value()).
    void value() const { check(code_, message_); }

private:
    ArgusResult code_ = ARGUS_RESULT_OK;
    std::string message_;
};

/// A typed id: the C id plus ==. Default-constructed ids are null. An id names a thing of
/// the world that issued it (`raw.world` is that world's tag); another world refuses it.
template <class Raw>
struct Id {
    Raw raw{};
    /// True for the null id (generation 0).
    bool null() const noexcept { return raw.generation == 0; }
    friend bool operator==(const Id &a, const Id &b) noexcept {
        return a.raw.index == b.raw.index && a.raw.world == b.raw.world && a.raw.generation == b.raw.generation;
    }
    friend bool operator!=(const Id &a, const Id &b) noexcept { return !(a == b); }
};
using AgentId = Id<ArgusAgentId>;       ///< An agent (a guard).
using TargetId = Id<ArgusTargetId>;     ///< A target (something agents perceive).
using OccluderId = Id<ArgusOccluderId>; ///< An occluder (level geometry).
using InfluenceMapId = Id<ArgusInfluenceMapId>; ///< An influence map.

/// The message of the last failed argus call on this thread (also for calls without a world).
inline std::string last_thread_error() { return argus_last_error(); }
/// Worlds created and not yet destroyed in this process.
inline uint32_t live_world_count() noexcept { return argus_live_world_count(); }

/// The C defs, filled by their argus_default_*() on construction; change fields and pass on.
struct WorldDef : ArgusWorldDef { WorldDef() : ArgusWorldDef(argus_default_world_def()) {} };
struct AgentDef : ArgusAgentDef { AgentDef() : ArgusAgentDef(argus_default_agent_def()) {} };
struct TargetDef : ArgusTargetDef { TargetDef() : ArgusTargetDef(argus_default_target_def()) {} };
struct OccluderDef : ArgusOccluderDef { OccluderDef() : ArgusOccluderDef(argus_default_occluder_def()) {} };
struct SoundDef : ArgusSoundDef { SoundDef() : ArgusSoundDef(argus_default_sound_def()) {} };
struct DebugDrawOptions : ArgusDebugDrawOptions {
    DebugDrawOptions() : ArgusDebugDrawOptions(argus_default_debug_draw_options()) {}
};
struct InfluenceMapDef : ArgusInfluenceMapDef {
    InfluenceMapDef() : ArgusInfluenceMapDef(argus_default_influence_map_def()) {}
};
struct CoverQuery : ArgusCoverQuery { CoverQuery() : ArgusCoverQuery(argus_default_cover_query()) {} };
struct FlankQuery : ArgusFlankQuery { FlankQuery() : ArgusFlankQuery(argus_default_flank_query()) {} };
struct RecordDef : ArgusRecordDef { RecordDef() : ArgusRecordDef(argus_default_record_def()) {} };
struct WalkGridDef : ArgusWalkGridDef { WalkGridDef() : ArgusWalkGridDef(argus_default_walk_grid_def()) {} };

/// The shortest walk between two points: its metres and the nodes walked through (empty and
/// `found` false when there is none within the limit).
struct Walk {
    bool found = false;
    float distance = -1.0f;
    std::vector<uint32_t> nodes;
};

/// Ranked spots of a tactical query and its summary (the best spot or the lesson's fallback).
struct Tactical {
    std::vector<ArgusTacticalResult> results;
    ArgusTacticalAnswer answer{};
};

/// The best cell near a point, if any cell was in range.
struct BestCell {
    bool found = false;
    ArgusCellValue cell{};
};

/// A vector (Y up, metres).
inline ArgusVec3 vec3(float x, float y, float z) noexcept { return ArgusVec3{x, y, z}; }

/// A read-only view of an array the world owns: `for (const T& x : span)`.
template <class T>
struct Span {
    const T *items = nullptr;
    uint32_t count = 0;
    const T *begin() const noexcept { return items; }
    const T *end() const noexcept { return items + count; }
    uint32_t size() const noexcept { return count; }
    bool empty() const noexcept { return count == 0; }
    const T &operator[](uint32_t i) const noexcept { return items[i]; }
};

/// The debug picture: lines and points, valid until the next debug_draw().
struct DebugDraw {
    Span<ArgusDebugLine> lines;
    Span<ArgusDebugPoint> points;
};

/// An engine's batch ray caster: fill hits[i] for rays[i], i < count.
using RayCaster = std::function<void(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits)>;

namespace detail {
/// The ABI the header was written for against the library's; a clear message on mismatch.
inline Result<void> check_abi(uint32_t library_abi) {
    if (library_abi == ARGUS_ABI_VERSION) return {};
    return Result<void>(ARGUS_RESULT_INVALID_ARGUMENT,
                        "argus ABI mismatch: argus.h/argus.hpp expect ABI version " + std::to_string(ARGUS_ABI_VERSION) +
                            " but the loaded library (" + argus_version_string() + ") has ABI version " +
                            std::to_string(library_abi) + "; build against the library's own argus.h");
}

/// The ray caster as stored in a World: heap-allocated so user_data survives moves.
struct Caster {
    RayCaster fn;
#if ARGUS_HPP_EXCEPTIONS
    std::exception_ptr error; // thrown by fn; rethrown once the library call returns
#endif
    static ArgusResult trampoline(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *self) noexcept {
        Caster *c = static_cast<Caster *>(self);
#if ARGUS_HPP_EXCEPTIONS
        try {
            c->fn(rays, count, hits);
        } catch (...) { // never unwind through the library: report the failure (the call ends
            // with ARGUS_RESULT_CALLBACK_FAILED, the world unchanged) and rethrow once it returns
            c->error = std::current_exception();
            return ARGUS_RESULT_INVALID_ARGUMENT;
        }
#else
        c->fn(rays, count, hits);
#endif
        return ARGUS_RESULT_OK;
    }
};
} // namespace detail

/// An owning, move-only world: destroyed (once) by its destructor.
class World {
public:
    /// Creates a world from `def`; throws argus::Error on a refused def or an ABI mismatch.
    explicit World(const ArgusWorldDef &def = WorldDef()) : World(create(def).value()) {}

    /// Non-throwing creation (checks the ABI too).
    static Result<World> create(const ArgusWorldDef &def = WorldDef()) {
        Result<void> abi = detail::check_abi(argus_abi_version());
        if (!abi.ok()) return Result<World>(abi.error(), abi.message());
        ArgusWorld *raw = nullptr;
        ArgusResult r = argus_world_create(&def, &raw);
        if (r != ARGUS_RESULT_OK) return Result<World>(r, std::string(result_name(r)) + ": " + argus_last_error());
        return World(raw, nullptr);
    }

    World(World &&other) noexcept : world_(std::exchange(other.world_, nullptr)), caster_(std::move(other.caster_)) {}
    World &operator=(World &&other) noexcept {
        if (this != &other) {
            reset();
            world_ = std::exchange(other.world_, nullptr);
            caster_ = std::move(other.caster_);
        }
        return *this;
    }
    World(const World &) = delete;
    World &operator=(const World &) = delete;
    ~World() { reset(); }

    /// Destroys the world now (a moved-from or reset world is null; calls on it fail).
    void reset() noexcept {
        argus_world_destroy(world_);
        world_ = nullptr;
        caster_.reset();
    }
    /// The C handle, for calls the wrapper does not cover (still owned by this World).
    ArgusWorld *get() const noexcept { return world_; }
    explicit operator bool() const noexcept { return world_ != nullptr; }
    /// The message of the last failed call on this world.
    std::string last_error() const { return argus_world_last_error(world_); }
    /// The tag this world stamps into its ids (to reuse ids saved from another world after load).
    uint16_t tag() const noexcept { return argus_world_tag(world_); }
    /// Makes room for more agents and targets (a hint).
    Result<void> try_reserve(uint32_t agents, uint32_t targets) { return call_void(argus_world_reserve(world_, agents, targets)); }
    void reserve(uint32_t agents, uint32_t targets) { try_reserve(agents, targets).value(); }

    // ---- agents -------------------------------------------------------------------------
    /// Creates an agent from `def` (copied).
    Result<AgentId> try_create_agent(const ArgusAgentDef &def) { return call<AgentId>([&](AgentId *o) { return argus_agent_create(world_, &def, &o->raw); }); }
    AgentId create_agent(const ArgusAgentDef &def) { return try_create_agent(def).value(); }
    /// Destroys an agent (a stale id fails with ARGUS_RESULT_INVALID_ID).
    Result<void> try_destroy(AgentId a) { return call_void(argus_agent_destroy(world_, a.raw)); }
    void destroy(AgentId a) { try_destroy(a).value(); }
    /// True if `a` names a live agent.
    bool valid(AgentId a) const noexcept { return argus_agent_is_valid(world_, a.raw) != 0; }
    /// Moves and turns an agent.
    Result<void> try_set_pose(AgentId a, ArgusVec3 position, ArgusVec3 forward) { return call_void(argus_agent_set_pose(world_, a.raw, position, forward)); }
    void set_pose(AgentId a, ArgusVec3 position, ArgusVec3 forward) { try_set_pose(a, position, forward).value(); }
    /// Replaces an agent's settings (memory and brain are kept).
    Result<void> try_set_def(AgentId a, const ArgusAgentDef &def) { return call_void(argus_agent_set_def(world_, a.raw, &def)); }
    void set_def(AgentId a, const ArgusAgentDef &def) { try_set_def(a, def).value(); }
    /// The agent's settings and pose.
    Result<ArgusAgentDef> try_def(AgentId a) const { return call<ArgusAgentDef>([&](ArgusAgentDef *o) { return argus_agent_get_def(world_, a.raw, o); }); }
    ArgusAgentDef def(AgentId a) const { return try_def(a).value(); }
    /// One sense's settings, replaced alone (pose, memory and brain are kept) or read.
    Result<void> try_set_sight(AgentId a, const ArgusSightSettings &s) { return call_void(argus_agent_set_sight(world_, a.raw, &s)); }
    void set_sight(AgentId a, const ArgusSightSettings &s) { try_set_sight(a, s).value(); }
    Result<ArgusSightSettings> try_sight(AgentId a) const { return call<ArgusSightSettings>([&](ArgusSightSettings *o) { return argus_agent_get_sight(world_, a.raw, o); }); }
    ArgusSightSettings sight(AgentId a) const { return try_sight(a).value(); }
    /// One sense's settings, replaced alone (pose, memory and brain are kept) or read.
    Result<void> try_set_hearing(AgentId a, const ArgusHearingSettings &s) { return call_void(argus_agent_set_hearing(world_, a.raw, &s)); }
    void set_hearing(AgentId a, const ArgusHearingSettings &s) { try_set_hearing(a, s).value(); }
    Result<ArgusHearingSettings> try_hearing(AgentId a) const { return call<ArgusHearingSettings>([&](ArgusHearingSettings *o) { return argus_agent_get_hearing(world_, a.raw, o); }); }
    ArgusHearingSettings hearing(AgentId a) const { return try_hearing(a).value(); }
    /// One sense's settings, replaced alone (pose, memory and brain are kept) or read.
    Result<void> try_set_memory_settings(AgentId a, const ArgusMemorySettings &s) { return call_void(argus_agent_set_memory_settings(world_, a.raw, &s)); }
    void set_memory_settings(AgentId a, const ArgusMemorySettings &s) { try_set_memory_settings(a, s).value(); }
    Result<ArgusMemorySettings> try_memory_settings(AgentId a) const { return call<ArgusMemorySettings>([&](ArgusMemorySettings *o) { return argus_agent_get_memory_settings(world_, a.raw, o); }); }
    ArgusMemorySettings memory_settings(AgentId a) const { return try_memory_settings(a).value(); }
    /// One sense's settings, replaced alone (pose, memory and brain are kept) or read.
    Result<void> try_set_brain(AgentId a, const ArgusBrainSettings &s) { return call_void(argus_agent_set_brain(world_, a.raw, &s)); }
    void set_brain(AgentId a, const ArgusBrainSettings &s) { try_set_brain(a, s).value(); }
    Result<ArgusBrainSettings> try_brain(AgentId a) const { return call<ArgusBrainSettings>([&](ArgusBrainSettings *o) { return argus_agent_get_brain(world_, a.raw, o); }); }
    ArgusBrainSettings brain(AgentId a) const { return try_brain(a).value(); }
    /// One sense's settings, replaced alone (pose, memory and brain are kept) or read.
    Result<void> try_set_awareness(AgentId a, const ArgusAwarenessSettings &s) { return call_void(argus_agent_set_awareness(world_, a.raw, &s)); }
    void set_awareness(AgentId a, const ArgusAwarenessSettings &s) { try_set_awareness(a, s).value(); }
    Result<ArgusAwarenessSettings> try_awareness(AgentId a) const { return call<ArgusAwarenessSettings>([&](ArgusAwarenessSettings *o) { return argus_agent_get_awareness(world_, a.raw, o); }); }
    ArgusAwarenessSettings awareness(AgentId a) const { return try_awareness(a).value(); }
    /// Pose and brain outputs.
    Result<ArgusAgentState> try_state(AgentId a) const { return call<ArgusAgentState>([&](ArgusAgentState *o) { return argus_agent_get_state(world_, a.raw, o); }); }
    ArgusAgentState state(AgentId a) const { return try_state(a).value(); }
    /// The engine reports arrival at the investigate position.
    Result<void> try_report_arrived(AgentId a) { return call_void(argus_agent_report_arrived(world_, a.raw)); }
    void report_arrived(AgentId a) { try_report_arrived(a).value(); }
    /// Moves many agents in one call (`forwards` empty = keep facing); all checked first.
    Result<void> try_set_poses(const std::vector<AgentId> &agents, const std::vector<ArgusVec3> &positions, const std::vector<ArgusVec3> &forwards = {}) {
        std::vector<ArgusAgentId> raw;
        for (const AgentId &a : agents) raw.push_back(a.raw);
        if (positions.size() != raw.size() || (!forwards.empty() && forwards.size() != raw.size()))
            return Result<void>(ARGUS_RESULT_INVALID_ARGUMENT, "set_poses: arrays of different lengths");
        return call_void(argus_agent_set_poses(world_, raw.data(), positions.data(), forwards.empty() ? nullptr : forwards.data(), static_cast<uint32_t>(raw.size())));
    }
    void set_poses(const std::vector<AgentId> &agents, const std::vector<ArgusVec3> &positions, const std::vector<ArgusVec3> &forwards = {}) { try_set_poses(agents, positions, forwards).value(); }
    /// Every agent's id and state in one call, in slot order (the per-frame read).
    Result<std::vector<ArgusAgentStateEntry>> try_agent_states() const {
        return fill<ArgusAgentStateEntry>([&](ArgusAgentStateEntry *b, uint32_t cap, uint32_t *n) { return argus_world_get_agent_states(world_, b, cap, n); });
    }
    std::vector<ArgusAgentStateEntry> agent_states() const { return try_agent_states().value(); }
    /// Drops an agent's record of a target (no event).
    Result<void> try_forget(AgentId a, TargetId t) { return call_void(argus_agent_forget(world_, a.raw, t.raw)); }
    void forget(AgentId a, TargetId t) { try_forget(a, t).value(); }
    /// Sets a memory record by hand (confidence in [0, 1]).
    Result<void> try_remember(AgentId a, TargetId t, ArgusVec3 position, float confidence) { return call_void(argus_agent_remember(world_, a.raw, t.raw, position, confidence)); }
    void remember(AgentId a, TargetId t, ArgusVec3 position, float confidence) { try_remember(a, t, position, confidence).value(); }
    /// The agent's memory records (copied).
    Result<std::vector<ArgusMemoryRecord>> try_memory(AgentId a) const {
        return fill<ArgusMemoryRecord>([&](ArgusMemoryRecord *b, uint32_t cap, uint32_t *n) { return argus_agent_get_memory(world_, a.raw, b, cap, n); });
    }
    std::vector<ArgusMemoryRecord> memory(AgentId a) const { return try_memory(a).value(); }
    /// Every target the agent can see now, in slot order, with their user_data.
    Result<std::vector<ArgusTargetRef>> try_visible_target_refs(AgentId a) {
        return fill<ArgusTargetRef>([&](ArgusTargetRef *b, uint32_t cap, uint32_t *n) { return argus_agent_get_visible_targets(world_, a.raw, b, cap, n); });
    }
    std::vector<ArgusTargetRef> visible_target_refs(AgentId a) { return try_visible_target_refs(a).value(); }
    /// Every target the agent can see now, in slot order (ids only).
    Result<std::vector<TargetId>> try_visible_targets(AgentId a) {
        Result<std::vector<ArgusTargetRef>> raw = try_visible_target_refs(a);
        if (!raw.ok()) return Result<std::vector<TargetId>>(raw.error(), raw.message());
        std::vector<TargetId> ids;
        for (const ArgusTargetRef &t : raw.value()) ids.push_back(TargetId{t.target});
        return ids;
    }
    std::vector<TargetId> visible_targets(AgentId a) { return try_visible_targets(a).value(); }
    /// Can `a` see `t` right now (range, cone, line of sight)? Touches no memory.
    Result<ArgusSightResult> try_can_see(AgentId a, TargetId t) { return call<ArgusSightResult>([&](ArgusSightResult *o) { return argus_agent_can_see(world_, a.raw, t.raw, o); }); }
    ArgusSightResult can_see(AgentId a, TargetId t) { return try_can_see(a, t).value(); }

    // ---- targets, occluders, sounds, teams ----------------------------------------------
    /// Creates a target from `def` (copied).
    Result<TargetId> try_create_target(const ArgusTargetDef &def) { return call<TargetId>([&](TargetId *o) { return argus_target_create(world_, &def, &o->raw); }); }
    TargetId create_target(const ArgusTargetDef &def) { return try_create_target(def).value(); }
    /// Destroys a target; every agent forgets it.
    Result<void> try_destroy(TargetId t) { return call_void(argus_target_destroy(world_, t.raw)); }
    void destroy(TargetId t) { try_destroy(t).value(); }
    bool valid(TargetId t) const noexcept { return argus_target_is_valid(world_, t.raw) != 0; }
    /// Moves and turns a target.
    Result<void> try_set_pose(TargetId t, ArgusVec3 position, ArgusVec3 forward) { return call_void(argus_target_set_pose(world_, t.raw, position, forward)); }
    void set_pose(TargetId t, ArgusVec3 position, ArgusVec3 forward) { try_set_pose(t, position, forward).value(); }
    /// Shows or hides a target from every agent's sight.
    Result<void> try_set_enabled(TargetId t, bool enabled) { return call_void(argus_target_set_enabled(world_, t.raw, enabled ? 1 : 0)); }
    void set_enabled(TargetId t, bool enabled) { try_set_enabled(t, enabled).value(); }
    /// Moves many targets in one call (`forwards` empty = keep facing); all checked first.
    Result<void> try_set_poses(const std::vector<TargetId> &targets, const std::vector<ArgusVec3> &positions, const std::vector<ArgusVec3> &forwards = {}) {
        std::vector<ArgusTargetId> raw;
        for (const TargetId &t : targets) raw.push_back(t.raw);
        if (positions.size() != raw.size() || (!forwards.empty() && forwards.size() != raw.size()))
            return Result<void>(ARGUS_RESULT_INVALID_ARGUMENT, "set_poses: arrays of different lengths");
        return call_void(argus_target_set_poses(world_, raw.data(), positions.data(), forwards.empty() ? nullptr : forwards.data(), static_cast<uint32_t>(raw.size())));
    }
    void set_poses(const std::vector<TargetId> &targets, const std::vector<ArgusVec3> &positions, const std::vector<ArgusVec3> &forwards = {}) { try_set_poses(targets, positions, forwards).value(); }
    /// Replaces a target's settings and pose.
    Result<void> try_set_def(TargetId t, const ArgusTargetDef &def) { return call_void(argus_target_set_def(world_, t.raw, &def)); }
    void set_def(TargetId t, const ArgusTargetDef &def) { try_set_def(t, def).value(); }
    /// The target's settings and pose.
    Result<ArgusTargetDef> try_def(TargetId t) const { return call<ArgusTargetDef>([&](ArgusTargetDef *o) { return argus_target_get_def(world_, t.raw, o); }); }
    ArgusTargetDef def(TargetId t) const { return try_def(t).value(); }
    /// Adds an occluder (mesh arrays are read during the call only).
    Result<OccluderId> try_create_occluder(const ArgusOccluderDef &def) { return call<OccluderId>([&](OccluderId *o) { return argus_occluder_create(world_, &def, &o->raw); }); }
    OccluderId create_occluder(const ArgusOccluderDef &def) { return try_create_occluder(def).value(); }
    Result<void> try_destroy(OccluderId o) { return call_void(argus_occluder_destroy(world_, o.raw)); }
    void destroy(OccluderId o) { try_destroy(o).value(); }
    bool valid(OccluderId o) const noexcept { return argus_occluder_is_valid(world_, o.raw) != 0; }
    /// Moves an occluder (doors, vehicles).
    Result<void> try_set_pose(OccluderId o, ArgusVec3 position, ArgusQuat rotation) { return call_void(argus_occluder_set_pose(world_, o.raw, position, rotation)); }
    void set_pose(OccluderId o, ArgusVec3 position, ArgusQuat rotation) { try_set_pose(o, position, rotation).value(); }
    /// Changes which layers an occluder is on.
    Result<void> try_set_layers(OccluderId o, uint32_t layers) { return call_void(argus_occluder_set_layers(world_, o.raw, layers)); }
    void set_layers(OccluderId o, uint32_t layers) { try_set_layers(o, layers).value(); }
    /// The occluder's user_data.
    Result<uint64_t> try_user_data(OccluderId o) const { return call<uint64_t>([&](uint64_t *out) { return argus_occluder_get_user_data(world_, o.raw, out); }); }
    uint64_t user_data(OccluderId o) const { return try_user_data(o).value(); }
    /// Broadcasts a sound, heard at the next step.
    Result<void> try_emit_sound(const ArgusSoundDef &def) { return call_void(argus_world_emit_sound(world_, &def)); }
    void emit_sound(const ArgusSoundDef &def) { try_emit_sound(def).value(); }
    /// How team `observer` regards team `other`.
    Result<void> try_set_attitude(uint32_t observer, uint32_t other, ArgusAttitude attitude) { return call_void(argus_world_set_attitude(world_, observer, other, attitude)); }
    void set_attitude(uint32_t observer, uint32_t other, ArgusAttitude attitude) { try_set_attitude(observer, other, attitude).value(); }
    Result<ArgusAttitude> try_attitude(uint32_t observer, uint32_t other) const { return call<ArgusAttitude>([&](ArgusAttitude *o) { return argus_world_get_attitude(world_, observer, other, o); }); }
    ArgusAttitude attitude(uint32_t observer, uint32_t other) const { return try_attitude(observer, other).value(); }

    // ---- the walk graph (where people can stand and walk; walk hearing goes along it) ------
    /// Builds a grid walk graph over the occluders (replacing the world's graph).
    Result<void> try_set_walk_grid(const ArgusWalkGridDef &def) { return call_void(argus_world_set_walk_grid(world_, &def)); }
    void set_walk_grid(const ArgusWalkGridDef &def) { try_set_walk_grid(def).value(); }
    /// The engine's own graph: nodes, edges (walked both ways) and the snap distance.
    Result<void> try_set_walk_graph(const std::vector<ArgusVec3> &nodes, const std::vector<ArgusWalkEdge> &edges, float snap_distance) {
        return call_void(argus_world_set_walk_graph(world_, nodes.data(), static_cast<uint32_t>(nodes.size()), edges.data(), static_cast<uint32_t>(edges.size()), snap_distance));
    }
    void set_walk_graph(const std::vector<ArgusVec3> &nodes, const std::vector<ArgusWalkEdge> &edges, float snap_distance) { try_set_walk_graph(nodes, edges, snap_distance).value(); }
    Result<void> try_clear_walk_graph() { return call_void(argus_world_clear_walk_graph(world_)); }
    void clear_walk_graph() { try_clear_walk_graph().value(); }
    /// What the graph is (kind ARGUS_WALK_GRAPH_KIND_NONE without one).
    Result<ArgusWalkGraphInfo> try_walk_graph_info() const { return call<ArgusWalkGraphInfo>([&](ArgusWalkGraphInfo *o) { return argus_world_get_walk_graph_info(world_, o); }); }
    ArgusWalkGraphInfo walk_graph_info() const { return try_walk_graph_info().value(); }
    Result<std::vector<ArgusWalkNode>> try_walk_nodes() const {
        return fill<ArgusWalkNode>([&](ArgusWalkNode *b, uint32_t cap, uint32_t *n) { return argus_world_get_walk_nodes(world_, b, cap, n); });
    }
    std::vector<ArgusWalkNode> walk_nodes() const { return try_walk_nodes().value(); }
    Result<std::vector<ArgusWalkEdge>> try_walk_edges() const {
        return fill<ArgusWalkEdge>([&](ArgusWalkEdge *b, uint32_t cap, uint32_t *n) { return argus_world_get_walk_edges(world_, b, cap, n); });
    }
    std::vector<ArgusWalkEdge> walk_edges() const { return try_walk_edges().value(); }
    /// The shortest walk of at most `limit` metres from `from` to `to`.
    Result<Walk> try_find_walk(ArgusVec3 from, ArgusVec3 to, float limit) {
        Walk walk;
        auto result = fill<uint32_t>([&](uint32_t *b, uint32_t cap, uint32_t *n) { return argus_world_find_walk(world_, from, to, limit, &walk.distance, b, cap, n); });
        if (!result.ok()) return Result<Walk>(result.error(), result.message());
        walk.nodes = std::move(result).value();
        walk.found = walk.distance >= 0.0f;
        return walk;
    }
    Walk find_walk(ArgusVec3 from, ArgusVec3 to, float limit) { return try_find_walk(from, to, limit).value(); }

    // ---- beliefs (agents searching by belief: brain.search = ARGUS_SEARCH_KIND_BELIEF) ----
    /// What `a` believes now about where its focus is; empty when it keeps no belief.
    Result<std::optional<ArgusBeliefInfo>> try_belief_info(AgentId a) const {
        return call<std::optional<ArgusBeliefInfo>>([&](std::optional<ArgusBeliefInfo> *o) {
            ArgusBeliefInfo info{};
            uint8_t has = 0;
            ArgusResult r = argus_agent_get_belief_info(world_, a.raw, &info, &has);
            if (has) *o = info;
            return r;
        });
    }
    std::optional<ArgusBeliefInfo> belief_info(AgentId a) const { return try_belief_info(a).value(); }
    /// Every walk-graph node's probability (node order; empty without a belief).
    Result<std::vector<float>> try_belief(AgentId a) const {
        return fill<float>([&](float *b, uint32_t cap, uint32_t *n) { return argus_agent_get_belief(world_, a.raw, b, cap, n); });
    }
    std::vector<float> belief(AgentId a) const { return try_belief(a).value(); }
    /// The probability at the node nearest `position` (0 off the graph or without a belief).
    Result<float> try_belief_at(AgentId a, ArgusVec3 position) const { return call<float>([&](float *o) { return argus_agent_get_belief_at(world_, a.raw, position, o); }); }
    float belief_at(AgentId a, ArgusVec3 position) const { return try_belief_at(a, position).value(); }
    /// Up to `count` places to search, most probable first.
    Result<std::vector<ArgusSearchPoint>> try_search_points(AgentId a, uint32_t count) const {
        std::vector<ArgusSearchPoint> points(count);
        uint32_t n = 0;
        ArgusResult r = argus_agent_get_search_points(world_, a.raw, points.data(), count, &n);
        if (r != ARGUS_RESULT_OK) return Result<std::vector<ArgusSearchPoint>>(r, last_error());
        points.resize(n);
        return points;
    }
    std::vector<ArgusSearchPoint> search_points(AgentId a, uint32_t count) const { return try_search_points(a, count).value(); }

    // ---- save and load ------------------------------------------------------------------
    /// The world as a snapshot (versioned, checksummed bytes).
    Result<std::vector<uint8_t>> try_save() const {
        return fill<uint8_t>([&](uint8_t *b, uint32_t cap, uint32_t *n) { return argus_world_save(world_, b, cap, n); });
    }
    std::vector<uint8_t> save() const { return try_save().value(); }
    /// Replaces the world's contents with a snapshot's (refused whole, world unchanged, if damaged).
    Result<void> try_load(const std::vector<uint8_t> &bytes) { return call_void(argus_world_load(world_, bytes.data(), static_cast<uint32_t>(bytes.size()))); }
    void load(const std::vector<uint8_t> &bytes) { try_load(bytes).value(); }

    // ---- labels: the engine's names for things, kept by recordings ---------------------
    /// Names an agent, a target or an occluder ("" removes the name).
    Result<void> try_set_label(AgentId a, const std::string &label) { return call_void(argus_agent_set_label(world_, a.raw, label.c_str())); }
    Result<void> try_set_label(TargetId t, const std::string &label) { return call_void(argus_target_set_label(world_, t.raw, label.c_str())); }
    Result<void> try_set_label(OccluderId o, const std::string &label) { return call_void(argus_occluder_set_label(world_, o.raw, label.c_str())); }
    template <typename Id> void set_label(Id id, const std::string &label) { try_set_label(id, label).value(); }
    /// A thing's name ("" when it has none).
    Result<std::string> try_label(AgentId a) const { return label_of([&](char *b, uint32_t c, uint32_t *n) { return argus_agent_get_label(world_, a.raw, b, c, n); }); }
    Result<std::string> try_label(TargetId t) const { return label_of([&](char *b, uint32_t c, uint32_t *n) { return argus_target_get_label(world_, t.raw, b, c, n); }); }
    Result<std::string> try_label(OccluderId o) const { return label_of([&](char *b, uint32_t c, uint32_t *n) { return argus_occluder_get_label(world_, o.raw, b, c, n); }); }
    template <typename Id> std::string label(Id id) const { return try_label(id).value(); }

    // ---- recordings (docs/recording.md) -------------------------------------------------
    /// Starts recording (by default every agent in focus, sight decisions explained, kept in
    /// memory; `def.to` sends it to a file, a callback or the flight recorder instead).
    Result<void> try_start_recording(const ArgusRecordDef &def = RecordDef()) { return call_void(argus_world_start_recording(world_, &def)); }
    void start_recording(const ArgusRecordDef &def = RecordDef()) { try_start_recording(def).value(); }
    /// Starts recording to the file at `path` as the recording is made.
    Result<void> try_start_recording_to_file(const std::string &path, RecordDef def = RecordDef()) {
        def.to = ARGUS_RECORD_TO_FILE;
        def.path = path.c_str();
        return try_start_recording(def);
    }
    /// Starts the flight recorder: only the last `seconds` are kept, for save_flight_recording.
    Result<void> try_start_flight_recorder(float seconds, RecordDef def = RecordDef()) {
        def.to = ARGUS_RECORD_TO_FLIGHT;
        def.flight_seconds = seconds;
        return try_start_recording(def);
    }
    /// True between start_recording and stop_recording.
    bool is_recording() const noexcept { return argus_world_is_recording(world_) != 0; }
    /// Ends the recording and returns its bytes (empty for a file, callback or flight recording).
    Result<std::vector<uint8_t>> try_stop_recording() {
        Result<void> stopped = call_void(argus_world_stop_recording(world_));
        if (!stopped.ok()) return Result<std::vector<uint8_t>>(stopped.error(), stopped.message());
        uint64_t n = 0;
        ArgusResult r = argus_world_get_recording(world_, nullptr, 0, &n);
        if (r == ARGUS_RESULT_INVALID_ARGUMENT) return std::vector<uint8_t>();  // not kept in memory
        std::vector<uint8_t> bytes(static_cast<size_t>(n));
        if (r == ARGUS_RESULT_BUFFER_TOO_SMALL) r = argus_world_get_recording(world_, bytes.data(), n, &n);
        if (r != ARGUS_RESULT_OK) return Result<std::vector<uint8_t>>(r, detail::message(r, world_));
        return bytes;
    }
    std::vector<uint8_t> stop_recording() { return try_stop_recording().value(); }
    /// Saves the flight recorder's window to `path` as a recording of its own; its size.
    Result<uint64_t> try_save_flight_recording(const std::string &path) {
        uint64_t size = 0;
        ArgusResult r = argus_world_save_flight_recording(world_, path.c_str(), &size);
        if (r != ARGUS_RESULT_OK) return Result<uint64_t>(r, detail::message(r, world_));
        return size;
    }
    uint64_t save_flight_recording(const std::string &path) { return try_save_flight_recording(path).value(); }
    /// A world as the recorded one was after its first `steps` steps (UINT32_MAX: when it stopped).
    static Result<World> from_recording(const std::vector<uint8_t> &bytes, uint32_t steps = UINT32_MAX) {
        Result<void> abi = detail::check_abi(argus_abi_version());
        if (!abi.ok()) return Result<World>(abi.error(), abi.message());
        ArgusWorld *raw = nullptr;
        ArgusResult r = argus_world_create_from_recording(bytes.data(), bytes.size(), steps, &raw);
        if (r != ARGUS_RESULT_OK) return Result<World>(r, std::string(result_name(r)) + ": " + argus_last_error());
        return World(raw, nullptr);
    }

    // ---- influence maps -----------------------------------------------------------------
    /// Creates an influence map owned by this world.
    Result<InfluenceMapId> try_create_influence_map(const ArgusInfluenceMapDef &def = InfluenceMapDef()) { return call<InfluenceMapId>([&](InfluenceMapId *o) { return argus_influence_map_create(world_, &def, &o->raw); }); }
    InfluenceMapId create_influence_map(const ArgusInfluenceMapDef &def = InfluenceMapDef()) { return try_create_influence_map(def).value(); }
    Result<void> try_destroy(InfluenceMapId m) { return call_void(argus_influence_map_destroy(world_, m.raw)); }
    void destroy(InfluenceMapId m) { try_destroy(m).value(); }
    bool valid(InfluenceMapId m) const noexcept { return argus_influence_map_is_valid(world_, m.raw) != 0; }
    /// Size, cell size, origin, plane, layer count.
    Result<ArgusInfluenceMapInfo> try_info(InfluenceMapId m) const { return call<ArgusInfluenceMapInfo>([&](ArgusInfluenceMapInfo *o) { return argus_influence_map_get_info(world_, m.raw, o); }); }
    ArgusInfluenceMapInfo info(InfluenceMapId m) const { return try_info(m).value(); }
    /// One layer's values, row-major (valid until the map changes).
    Result<Span<float>> try_layer(InfluenceMapId m, uint32_t layer) const { return span<float, ArgusFloatArray>([&](ArgusFloatArray *a) { return argus_influence_map_get_layer(world_, m.raw, layer, a); }); }
    Span<float> layer(InfluenceMapId m, uint32_t layer) const { return try_layer(m, layer).value(); }
    /// Zeroes a layer (ARGUS_INFLUENCE_ALL_LAYERS: every layer).
    Result<void> try_clear(InfluenceMapId m, uint32_t layer) { return call_void(argus_influence_map_clear(world_, m.raw, layer)); }
    void clear(InfluenceMapId m, uint32_t layer) { try_clear(m, layer).value(); }
    Result<void> try_set_layer_name(InfluenceMapId m, uint32_t layer, const std::string &name) { return call_void(argus_influence_map_set_layer_name(world_, m.raw, layer, name.c_str())); }
    void set_layer_name(InfluenceMapId m, uint32_t layer, const std::string &name) { try_set_layer_name(m, layer, name).value(); }
    /// The layer named `name`, if any.
    Result<std::optional<uint32_t>> try_find_layer(InfluenceMapId m, const std::string &name) const {
        return call<std::optional<uint32_t>>([&](std::optional<uint32_t> *o) {
            uint32_t layer = 0;
            uint8_t found = 0;
            ArgusResult r = argus_influence_map_find_layer(world_, m.raw, name.c_str(), &layer, &found);
            if (found) *o = layer;
            return r;
        });
    }
    std::optional<uint32_t> find_layer(InfluenceMapId m, const std::string &name) const { return try_find_layer(m, name).value(); }
    Result<void> try_add_influence(InfluenceMapId m, uint32_t layer, ArgusVec3 position, float value, int32_t radius_cells) { return call_void(argus_influence_map_add_influence(world_, m.raw, layer, position, value, radius_cells)); }
    void add_influence(InfluenceMapId m, uint32_t layer, ArgusVec3 position, float value, int32_t radius_cells) { try_add_influence(m, layer, position, value, radius_cells).value(); }
    Result<void> try_add_influences(InfluenceMapId m, uint32_t layer, const std::vector<ArgusVec3> &positions, const std::vector<float> &values, int32_t radius_cells) {
        if (positions.size() != values.size()) return Result<void>(ARGUS_RESULT_INVALID_ARGUMENT, "add_influences: arrays of different lengths");
        return call_void(argus_influence_map_add_influences(world_, m.raw, layer, positions.data(), values.data(), static_cast<uint32_t>(values.size()), radius_cells));
    }
    void add_influences(InfluenceMapId m, uint32_t layer, const std::vector<ArgusVec3> &positions, const std::vector<float> &values, int32_t radius_cells) { try_add_influences(m, layer, positions, values, radius_cells).value(); }
    Result<void> try_blur(InfluenceMapId m, uint32_t layer, uint32_t passes) { return call_void(argus_influence_map_blur(world_, m.raw, layer, passes)); }
    void blur(InfluenceMapId m, uint32_t layer, uint32_t passes) { try_blur(m, layer, passes).value(); }
    Result<void> try_propagate(InfluenceMapId m, uint32_t layer, float decay, float momentum, uint32_t blocking_layers) { return call_void(argus_influence_map_propagate(world_, m.raw, layer, decay, momentum, blocking_layers)); }
    void propagate(InfluenceMapId m, uint32_t layer, float decay, float momentum, uint32_t blocking_layers) { try_propagate(m, layer, decay, momentum, blocking_layers).value(); }
    /// Marks cells inside occluders on `blocking_layers`; returns how many are blocked.
    Result<uint32_t> try_update_blocking(InfluenceMapId m, uint32_t blocking_layers) { return call<uint32_t>([&](uint32_t *o) { return argus_influence_map_update_blocking(world_, m.raw, blocking_layers, o); }); }
    uint32_t update_blocking(InfluenceMapId m, uint32_t blocking_layers) { return try_update_blocking(m, blocking_layers).value(); }
    Result<void> try_combine(InfluenceMapId m, uint32_t dest, ArgusCombineOp op, const std::vector<ArgusLayerWeight> &inputs) { return call_void(argus_influence_map_combine(world_, m.raw, dest, op, inputs.data(), static_cast<uint32_t>(inputs.size()))); }
    void combine(InfluenceMapId m, uint32_t dest, ArgusCombineOp op, const std::vector<ArgusLayerWeight> &inputs) { try_combine(m, dest, op, inputs).value(); }
    Result<void> try_normalize(InfluenceMapId m, uint32_t layer) { return call_void(argus_influence_map_normalize(world_, m.raw, layer)); }
    void normalize(InfluenceMapId m, uint32_t layer) { try_normalize(m, layer).value(); }
    Result<void> try_decay(InfluenceMapId m, uint32_t layer, float keep_per_second, float dt) { return call_void(argus_influence_map_decay(world_, m.raw, layer, keep_per_second, dt)); }
    void decay(InfluenceMapId m, uint32_t layer, float keep_per_second, float dt) { try_decay(m, layer, keep_per_second, dt).value(); }
    /// The value of the cell containing `position` (0 off the grid).
    Result<float> try_value(InfluenceMapId m, uint32_t layer, ArgusVec3 position) const { return call<float>([&](float *o) { return argus_influence_map_get_value(world_, m.raw, layer, position, o); }); }
    float value(InfluenceMapId m, uint32_t layer, ArgusVec3 position) const { return try_value(m, layer, position).value(); }
    /// Bilinear sample at `position`.
    Result<float> try_sample(InfluenceMapId m, uint32_t layer, ArgusVec3 position) const { return call<float>([&](float *o) { return argus_influence_map_sample(world_, m.raw, layer, position, o); }); }
    float sample(InfluenceMapId m, uint32_t layer, ArgusVec3 position) const { return try_sample(m, layer, position).value(); }
    /// The lowest (or highest, `find_max`) cell within `radius` of `position`.
    Result<BestCell> try_best_cell(InfluenceMapId m, uint32_t layer, ArgusVec3 position, float radius, bool find_max) const {
        return call<BestCell>([&](BestCell *o) {
            uint8_t found = 0;
            ArgusResult r = argus_influence_map_best_cell(world_, m.raw, layer, position, radius, find_max ? 1 : 0, &o->cell, &found);
            o->found = found != 0;
            return r;
        });
    }
    BestCell best_cell(InfluenceMapId m, uint32_t layer, ArgusVec3 position, float radius, bool find_max) const { return try_best_cell(m, layer, position, radius, find_max).value(); }

    // ---- tactics ------------------------------------------------------------------------
    /// Cover from the query's threats, best first (uses the ray caster when one is set).
    Result<Tactical> try_find_cover(const ArgusCoverQuery &query) {
        return tactical([&](ArgusTacticalResult *b, uint32_t cap, uint32_t *n, ArgusTacticalAnswer *a) { return argus_world_find_cover(world_, &query, b, cap, n, a); });
    }
    Tactical find_cover(const ArgusCoverQuery &query) { return try_find_cover(query).value(); }
    /// Flanking spots outside the threat's forward cone, best first.
    Result<Tactical> try_find_flank(const ArgusFlankQuery &query) {
        return tactical([&](ArgusTacticalResult *b, uint32_t cap, uint32_t *n, ArgusTacticalAnswer *a) { return argus_world_find_flank(world_, &query, b, cap, n, a); });
    }
    Tactical find_flank(const ArgusFlankQuery &query) { return try_find_flank(query).value(); }
    /// Two-phase cover, first half: every ray the query needs (valid until the query ends).
    /// Cast them all (e.g. in one engine batch), then cover_finish() with one hit per ray.
    Result<Span<ArgusRay>> try_cover_begin(const ArgusCoverQuery &query) { return span<ArgusRay, ArgusRayArray>([&](ArgusRayArray *a) { return argus_world_find_cover_begin(world_, &query, a); }); }
    Span<ArgusRay> cover_begin(const ArgusCoverQuery &query) { return try_cover_begin(query).value(); }
    /// Two-phase cover, second half: the same answer find_cover() gives for these hits.
    Result<Tactical> try_cover_finish(const std::vector<ArgusRayHit> &hits) {
        return tactical([&](ArgusTacticalResult *b, uint32_t cap, uint32_t *n, ArgusTacticalAnswer *a) { return argus_world_find_cover_finish(world_, hits.data(), static_cast<uint32_t>(hits.size()), b, cap, n, a); });
    }
    Tactical cover_finish(const std::vector<ArgusRayHit> &hits) { return try_cover_finish(hits).value(); }
    Result<void> try_cover_cancel() { return call_void(argus_world_find_cover_cancel(world_)); }
    void cover_cancel() { try_cover_cancel().value(); }
    // A flank casts no rays: find_flank() answers in one call, with no two-phase form.

    // ---- stepping and results -------------------------------------------------------------
    /// Advances the world by `dt` seconds (engine-ray worlds need set_ray_caster first).
    Result<void> try_step(float dt) { return call_void(argus_world_step(world_, dt)); }
    void step(float dt) { try_step(dt).value(); }
    /// Two-phase step, first half: the rays to cast (valid until step_finish/step_cancel).
    Result<Span<ArgusRay>> try_step_begin(float dt) { return span<ArgusRay, ArgusRayArray>([&](ArgusRayArray *a) { return argus_world_step_begin(world_, dt, a); }); }
    Span<ArgusRay> step_begin(float dt) { return try_step_begin(dt).value(); }
    /// Two-phase step, second half: one hit per ray, in order.
    Result<void> try_step_finish(const std::vector<ArgusRayHit> &hits) { return call_void(argus_world_step_finish(world_, hits.data(), static_cast<uint32_t>(hits.size()))); }
    void step_finish(const std::vector<ArgusRayHit> &hits) { try_step_finish(hits).value(); }
    /// Abandons a begun step; the world is as before it.
    Result<void> try_step_cancel() { return call_void(argus_world_step_cancel(world_)); }
    void step_cancel() { try_step_cancel().value(); }
    /// Seconds simulated so far.
    Result<double> try_time() const { return call<double>([&](double *o) { return argus_world_get_time(world_, o); }); }
    double time() const { return try_time().value(); }
    /// Live object counts.
    Result<ArgusWorldCounts> try_counts() const { return call<ArgusWorldCounts>([&](ArgusWorldCounts *o) { return argus_world_get_counts(world_, o); }); }
    ArgusWorldCounts counts() const { return try_counts().value(); }
    /// This step's percepts (valid until the next step).
    Result<Span<ArgusPercept>> try_percepts() const { return span<ArgusPercept, ArgusPerceptArray>([&](ArgusPerceptArray *a) { return argus_world_get_percepts(world_, a); }); }
    Span<ArgusPercept> percepts() const { return try_percepts().value(); }
    /// This step's brain state changes (valid until the next step).
    Result<Span<ArgusBrainEvent>> try_brain_events() const { return span<ArgusBrainEvent, ArgusBrainEventArray>([&](ArgusBrainEventArray *a) { return argus_world_get_brain_events(world_, a); }); }
    Span<ArgusBrainEvent> brain_events() const { return try_brain_events().value(); }
    /// This step's forgotten memories (valid until the next step).
    Result<Span<ArgusForgetEvent>> try_forget_events() const { return span<ArgusForgetEvent, ArgusForgetEventArray>([&](ArgusForgetEventArray *a) { return argus_world_get_forget_events(world_, a); }); }
    Span<ArgusForgetEvent> forget_events() const { return try_forget_events().value(); }
    /// This step's awareness stage changes (valid until the next step).
    Result<Span<ArgusAwarenessEvent>> try_awareness_events() const { return span<ArgusAwarenessEvent, ArgusAwarenessEventArray>([&](ArgusAwarenessEventArray *a) { return argus_world_get_awareness_events(world_, a); }); }
    Span<ArgusAwarenessEvent> awareness_events() const { return try_awareness_events().value(); }
    /// The debug picture (valid until the next debug draw).
    Result<DebugDraw> try_debug_draw(const ArgusDebugDrawOptions &options = DebugDrawOptions()) {
        return call<DebugDraw>([&](DebugDraw *o) {
            ArgusDebugDraw d{};
            ArgusResult r = argus_world_debug_draw(world_, &options, &d);
            *o = DebugDraw{{d.lines, d.line_count}, {d.points, d.point_count}};
            return r;
        });
    }
    DebugDraw debug_draw(const ArgusDebugDrawOptions &options = DebugDrawOptions()) { return try_debug_draw(options).value(); }

    /// Lets `caster` (any callable `void(const ArgusRay*, uint32_t, ArgusRayHit*)`) answer
    /// every line-of-sight ray; it is stored in the World (moves keep it). An exception it
    /// throws is rethrown from the call that made the library cast; a step it interrupted is
    /// refused, so the world stays as it was.
    template <class F>
    Result<void> try_set_ray_caster(F &&caster) {
        std::unique_ptr<detail::Caster> next(new detail::Caster());
        next->fn = RayCaster(std::forward<F>(caster));
        Result<void> r = call_void(argus_world_set_ray_callback(world_, &detail::Caster::trampoline, next.get()));
        if (r.ok()) caster_ = std::move(next);
        return r;
    }
    template <class F>
    void set_ray_caster(F &&caster) { try_set_ray_caster(std::forward<F>(caster)).value(); }
    /// Panics inside the library on purpose (binding tests of the panic firewall); poisons the world.
    /// Removes the ray caster.
    Result<void> try_clear_ray_caster() {
        Result<void> r = call_void(argus_world_set_ray_callback(world_, nullptr, nullptr));
        if (r.ok()) caster_.reset();
        return r;
    }
    void clear_ray_caster() { try_clear_ray_caster().value(); }

private:
    World(ArgusWorld *raw, std::nullptr_t) noexcept : world_(raw) {}

    void rethrow_caster() const {
#if ARGUS_HPP_EXCEPTIONS
        if (caster_ && caster_->error) std::rethrow_exception(std::exchange(caster_->error, nullptr));
#endif
    }
    Result<void> call_void(ArgusResult r) const {
        rethrow_caster();
        if (r != ARGUS_RESULT_OK) return Result<void>(r, detail::message(r, world_));
        return {};
    }
    template <class T, class F>
    Result<T> call(F &&f) const {
        T out{};
        ArgusResult r = f(&out);
        rethrow_caster();
        if (r != ARGUS_RESULT_OK) return Result<T>(r, detail::message(r, world_));
        return Result<T>(std::move(out));
    }
    template <class T, class Array, class F>
    Result<Span<T>> span(F &&f) const {
        return call<Span<T>>([&](Span<T> *o) {
            Array a{};
            ArgusResult r = f(&a);
            *o = Span<T>{a.items, a.count};
            return r;
        });
    }
    // Tactical queries: a caller buffer plus the answer, grown like fill().
    template <class F>
    Result<Tactical> tactical(F &&f) {
        Tactical t;
        t.results.resize(8);
        for (;;) {
            uint32_t n = 0;
            ArgusResult r = f(t.results.data(), static_cast<uint32_t>(t.results.size()), &n, &t.answer);
            rethrow_caster();
            if (r == ARGUS_RESULT_BUFFER_TOO_SMALL && n > t.results.size()) {
                t.results.resize(n);
                continue;
            }
            if (r != ARGUS_RESULT_OK) return Result<Tactical>(r, detail::message(r, world_));
            t.results.resize(n);
            return t;
        }
    }
    // Caller-buffer calls: grow the vector on BUFFER_TOO_SMALL and ask again.
    template <class T, class F>
    Result<std::vector<T>> fill(F &&f) const {
        std::vector<T> items(8);
        for (;;) {
            uint32_t n = 0;
            ArgusResult r = f(items.data(), static_cast<uint32_t>(items.size()), &n);
            rethrow_caster();
            if (r == ARGUS_RESULT_BUFFER_TOO_SMALL && n > items.size()) {
                items.resize(n);
                continue;
            }
            if (r != ARGUS_RESULT_OK) return Result<std::vector<T>>(r, detail::message(r, world_));
            items.resize(n);
            return items;
        }
    }

    template <typename F>
    Result<std::string> label_of(F &&f) const {
        char buffer[ARGUS_MAX_LABEL_BYTES + 1];
        uint32_t n = 0;
        ArgusResult r = f(buffer, static_cast<uint32_t>(sizeof buffer), &n);
        if (r != ARGUS_RESULT_OK) return Result<std::string>(r, detail::message(r, world_));
        return std::string(buffer, n);
    }

    ArgusWorld *world_ = nullptr;
    std::unique_ptr<detail::Caster> caster_;
};

/// Replays a recording and checks every step's outputs, byte for byte. A damaged recording is
/// ARGUS_RESULT_BAD_RECORDING; a step that replays differently ARGUS_RESULT_REPLAY_MISMATCH, the
/// step named in the message.
inline Result<ArgusReplayReport> verify_replay(const std::vector<uint8_t> &bytes) {
    ArgusReplayReport report{};
    ArgusResult r = argus_replay_verify(bytes.data(), bytes.size(), &report);
    if (r != ARGUS_RESULT_OK) return Result<ArgusReplayReport>(r, std::string(result_name(r)) + ": " + argus_last_error());
    return Result<ArgusReplayReport>(report);
}

} // namespace argus

#endif // ARGUS_HPP
