#pragma once
// Where tests find their inputs: the shared Score-P traces and the checked-in fixtures.

#include <QString>
#include <QStringList>

namespace rankscope::test {

/// Folder of one shared Score-P trace (e.g. "casita-mpi-tags-10r"), or empty if absent.
QString sharedTrace(const QString& name);
/// Names of the shared traces present (folders holding a traces.otf2), sorted.
QStringList sharedTraceNames();
/// Anchor file (traces.otf2) of one shared trace, or empty if absent.
QString sharedTraceAnchor(const QString& name);
/// Copies the shared trace `name` into the folder `dir` (files made writable, so a test may
/// damage them) and returns the copy's anchor file.
QString copySharedTrace(const QString& name, const QString& dir);
/// A checked-in fixture under tests/data.
QString testData(const QString& relative);

} // namespace rankscope::test
