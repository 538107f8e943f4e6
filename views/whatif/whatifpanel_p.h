#pragma once
// Item-data roles, section indices and small helpers shared by WhatIfPanel's behaviour
// (whatifpanel.cpp, whatifpanel_actions.cpp) and its section pages (whatifpanel_pages.cpp).

#include <QString>
#include <Qt>
#include <string>

namespace rankscope::whatifpanel {

inline constexpr int kMaxTarget = 16'777'216;
inline constexpr int kPathRole = Qt::UserRole;
inline constexpr int kRanksRole = Qt::UserRole + 1;
inline constexpr int kBrowseRole = Qt::UserRole + 2;
enum Section
{
    BaselineSection,
    NetworkSection,
    SimulationSection,
    SweepSection,
    ScenarioSection
};

inline constexpr const char* kErrorStyle = "color: #c62828;";

inline QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

/// "the scenario has no name" -> "The scenario has no name."
inline QString sentence(QString text)
{
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    if (!text.endsWith('.')) text += '.';
    return text;
}

} // namespace rankscope::whatifpanel
