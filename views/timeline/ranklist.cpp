#include "views/timeline/ranklist.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <unordered_set>

namespace rankscope {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RankList", text);
}

} // namespace

std::optional<std::vector<RankId>> parseRankList(const QString& text, size_t rankCount,
                                                 QString* error)
{
    auto fail = [error](const QString& message) -> std::optional<std::vector<RankId>> {
        if (error) *error = message;
        return std::nullopt;
    };
    std::vector<RankId> ranks;
    std::unordered_set<uint32_t> seen;
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    static const QRegularExpression item(QStringLiteral("^(\\d+)(?:-(\\d+))?$"));
    for (const QString& part : text.split(separators, Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = item.match(part);
        if (!m.hasMatch()) return fail(tr("'%1' is neither a rank nor a range like 4-7").arg(part));
        bool ok1 = false, ok2 = true;
        const qulonglong first = m.captured(1).toULongLong(&ok1);
        const qulonglong last = m.captured(2).isEmpty() ? first : m.captured(2).toULongLong(&ok2);
        if (!ok1 || !ok2 || last >= rankCount || first >= rankCount)
            return fail(
                tr("'%1': the trace has ranks 0 to %2").arg(part).arg(qulonglong(rankCount) - 1));
        if (last < first)
            return fail(tr("'%1': a range goes from the smaller rank to the larger").arg(part));
        for (qulonglong r = first; r <= last; ++r)
            if (seen.insert(uint32_t(r)).second) ranks.push_back(RankId(uint32_t(r)));
    }
    return ranks;
}

} // namespace rankscope
