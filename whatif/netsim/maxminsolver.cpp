#include "whatif/netsim/maxminsolver.h"

#include <algorithm>
#include <limits>

namespace rankscope::netsim {

namespace {
// Levels within this relative distance count as equal, so rounding in the subtractions cannot
// leave a saturated link one ulp short of full (which would cost an extra round).
constexpr double kSame = 1e-12;
} // namespace

void MaxMinSolver::clear()
{
    residual_.clear();
    capacity_.clear();
    users_.clear();
    begin_.assign(1, 0);
    links_.clear();
    cap_.clear();
}

uint32_t MaxMinSolver::addLink(double capacity)
{
    residual_.push_back(capacity);
    capacity_.push_back(capacity);
    users_.push_back(0);
    return uint32_t(residual_.size() - 1);
}

void MaxMinSolver::addFlow(const uint32_t* links, size_t count, double cap)
{
    for (size_t i = 0; i < count; ++i) {
        links_.push_back(links[i]);
        ++users_[links[i]];
    }
    begin_.push_back(uint32_t(links_.size()));
    cap_.push_back(cap);
}

const std::vector<double>& MaxMinSolver::solve()
{
    const size_t flows = cap_.size();
    rate_.assign(flows, 0.0);
    bottleneck_.assign(flows, kNoLink);
    open_.resize(flows);
    for (size_t f = 0; f < flows; ++f)
        open_[f] = uint32_t(f);
    full_.assign(residual_.size(), 0);
    while (!open_.empty()) {
        double level = std::numeric_limits<double>::infinity();
        for (size_t l = 0; l < residual_.size(); ++l)
            if (users_[l]) level = std::min(level, residual_[l] / users_[l]);
        for (uint32_t f : open_)
            level = std::min(level, cap_[f]);
        const double limit = level * (1 + kSame);
        for (size_t l = 0; l < residual_.size(); ++l)
            full_[l] = users_[l] && residual_[l] / users_[l] <= limit;
        next_.clear();
        for (uint32_t f : open_) {
            bool fixed = cap_[f] <= limit;
            for (uint32_t i = begin_[f]; i < begin_[f + 1] && !fixed; ++i)
                if (full_[links_[i]]) {
                    fixed = true;
                    bottleneck_[f] = links_[i];
                }
            if (!fixed) {
                next_.push_back(f);
                continue;
            }
            rate_[f] = level;
            for (uint32_t i = begin_[f]; i < begin_[f + 1]; ++i) {
                double& r = residual_[links_[i]];
                r = std::max(0.0, r - level);
                --users_[links_[i]];
            }
        }
        open_.swap(next_);
    }
    return rate_;
}

} // namespace rankscope::netsim
