#include "testsupport/handtrace.h"

#include <vector>

namespace rankscope::test {

RegionId HandTrace::user(std::string_view name)
{
    return region(name, RegionRole::Function, Paradigm::User);
}

RegionId HandTrace::mpi(std::string_view name, RegionRole role)
{
    return region(name, role, Paradigm::Mpi);
}

RegionId HandTrace::region(std::string_view name, RegionRole role, Paradigm paradigm)
{
    if (auto it = regions_.find(name); it != regions_.end()) return it->second;
    Region r;
    r.name = b_.intern(name);
    r.role = role;
    r.paradigm = paradigm;
    const RegionId id = b_.addRegion(r);
    regions_.emplace(std::string(name), id);
    return id;
}

LocationId HandTrace::addRank()
{
    const std::string n = std::to_string(b_.rankCount());
    const RankId rank = b_.addRank(b_.intern("rank " + n));
    return b_.addLocation(rank, b_.intern("rank " + n + " thread 0"), LocationType::CpuThread);
}

CommId HandTrace::addWorld()
{
    std::vector<RankId> members;
    for (uint32_t r = 0; r < b_.rankCount(); ++r)
        members.push_back(RankId(r));
    const CommId world = b_.addCommunicator(b_.intern("MPI_COMM_WORLD"), members);
    b_.setWorldCommunicator(world);
    return world;
}

void HandTrace::call(LocationId loc, RegionId r, int64_t begin, int64_t end)
{
    b_.enter(loc, begin, r);
    b_.leave(loc, end, r);
}

} // namespace rankscope::test
