#include "views/panes/durationformat.h"

#include "model/support/textformat.h"

namespace rankscope {

QString formatDuration(double ns)
{
    return QString::fromStdString(durationText(ns));
}
QString formatTimestamp(int64_t ns)
{
    return QString::fromStdString(timestampText(ns));
}
QString formatBytes(uint64_t bytes)
{
    return QString::fromStdString(bytesText(bytes));
}
QString formatCount(uint64_t n)
{
    return QString::fromStdString(countText(n));
}

} // namespace rankscope
