#pragma once
// What the user selected on a timeline, spelled out: the region instance (enter, leave,
// duration) and, for an MPI call, its call site, the delta time since the rank's previous MPI
// call with the execution interval `A - B` it belongs to, its message (partner, tag, bytes, send
// and receive times) or collective instance (operation, communicator, root, bytes, when each
// member entered).
//
// Call records are computed per rank on first selection there and cached (one pass over that
// rank's events), so stepping through calls costs a binary search.

#include "model/trace/callrecords.h"
#include "model/trace/callsites.h"
#include "views/timeline/timelineselection.h"

#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

class QTreeWidget;

namespace rankscope {

class Trace;

class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    /// One line of the pane: a section ("Region", "MPI call", "Message", "Collective",
    /// "Members"), a field name and its value.
    struct Row
    {
        QString section;
        QString field;
        QString value;
        bool operator==(const Row&) const = default;
    };

    explicit DetailsPane(QWidget* parent = nullptr);
    ~DetailsPane() override;

    /// The trace selections refer to (stays alive while shown); clears the selection.
    void setTrace(std::shared_ptr<const Trace> trace);
    const std::vector<Row>& rows() const { return rows_; }
    /// The value of `field` in `section`, empty when absent (for tests and copy).
    QString value(const QString& section, const QString& field) const;
    /// Shows `rows` as given, without a selection (a pane's look for tests and screenshots).
    void setRows(std::vector<Row> rows);

public slots:
    void setSelection(const rankscope::TimelineSelection& selection);

private:
    const RankCallRecords& callsOf(RankId rank);
    void describeRegion(const TimelineSelection& s, bool withTimes);
    void describeCall(const RankCallRecords& calls, size_t index);
    void describeMessage(MessageId id, RankId self);
    void describeCollective(CollectiveId id, RankId self);
    int64_t memberEnterTime(LocationId location, uint32_t beginEvent) const;
    void add(const QString& section, const QString& field, const QString& value);
    void refresh();

    std::shared_ptr<const Trace> trace_;
    CallSiteTable callSites_;
    // Call records of the ranks looked at most recently (a rank's records can be large; a user
    // clicking through many ranks must not keep them all).
    static constexpr size_t kCachedRanks = 4;
    std::map<uint32_t, RankCallRecords> calls_; // by rank
    std::vector<uint32_t> recentRanks_;         // least recently used first
    std::vector<Row> rows_;
    QTreeWidget* tree_;
};

} // namespace rankscope
