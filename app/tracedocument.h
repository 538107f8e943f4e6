#pragma once
// One open trace in its tab: the timeline in the centre, and under it the details of the
// selection beside the profile table (sorted by exclusive time).

#include "app/loadedtrace.h"

#include <QWidget>

class QSortFilterProxyModel;
class QTableView;

namespace rankscope {

class DetailsPane;
class ProfileModel;
class TimelineView;

class TraceDocument : public QWidget
{
    Q_OBJECT
public:
    explicit TraceDocument(LoadedTrace data, QWidget* parent = nullptr);

    const LoadedTrace& data() const { return data_; }
    TimelineView* timeline() const { return timeline_; }
    DetailsPane* details() const { return details_; }
    ProfileModel* profileModel() const { return profile_; }
    QTableView* profileTable() const { return table_; }

    /// Selects the longest MPI call other than MPI_Init/MPI_Finalize (a useful first look, e.g.
    /// for screenshots; one pass over every rank's events); false when there is none.
    bool selectLongestMpiCall();

private:
    LoadedTrace data_;
    TimelineView* timeline_;
    DetailsPane* details_;
    ProfileModel* profile_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
};

} // namespace rankscope
