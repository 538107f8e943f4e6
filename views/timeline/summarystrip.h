#pragma once
// A compact table under a comparison: run time and MPI time per rank (mean and maximum) of two
// runs, and how much the second differs from the first (absolute and in percent).

#include "model/profile/rankspread.h"

#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

class QGridLayout;

namespace rankscope {

struct Profile;

class SummaryStrip : public QWidget
{
    Q_OBJECT
public:
    /// The numbers of one run.
    struct Run
    {
        QString name;
        int64_t durationNs = 0;
        RankSpread mpiTimePerRank;

        /// Over the run span (Profile::spanNs), as the comparison summary and `compare` count.
        static Run of(const QString& name, const Profile& profile);
    };
    /// One compared quantity (ns).
    struct Line
    {
        QString quantity;
        double first = 0;
        double second = 0;
        double difference() const { return second - first; }
        /// Difference relative to the first run, in percent (0 when the first is 0).
        double percent() const { return first != 0 ? 100.0 * (second - first) / first : 0.0; }
    };

    explicit SummaryStrip(QWidget* parent = nullptr);

    void setRuns(const Run& first, const Run& second);
    const std::vector<Line>& lines() const { return lines_; }

private:
    void rebuild(const QString& firstName, const QString& secondName);

    std::vector<Line> lines_;
    QGridLayout* grid_;
};

} // namespace rankscope
