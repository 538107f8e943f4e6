#include "app/helpdialogs.h"

#include "app/mainactions.h"
#include "app/whatifcontroller.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace rankscope::HelpDialogs {

namespace {

QString row(const QString& keys, const QString& what)
{
    return QStringLiteral("<tr><td style='padding-right:18px'><b>%1</b></td><td>%2</td></tr>")
        .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
}

QDialog* textWindow(QWidget* parent, const QString& name, const QString& title, const QString& html,
                    QSize size)
{
    if (auto* open = parent->findChild<QDialog*>(name)) {
        open->raise();
        open->activateWindow();
        return open;
    }
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(name);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* text = new QTextBrowser(dialog);
    text->setOpenExternalLinks(true);
    text->setHtml(html);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(size);
    dialog->show();
    return dialog;
}

} // namespace

QString shortcutsHtml(const MainActions* actions)
{
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(QObject::tr("Commands"));
    for (const QAction* a : actions->allActions()) {
        if (a->shortcuts().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        html += row(keys.join(QStringLiteral(", ")), text);
    }
    html += QStringLiteral("</table><h3>%1</h3><table>").arg(QObject::tr("In the timeline"));
    const std::pair<const char*, const char*> timeline[] = {
        {"Wheel", "Zoom at the cursor"},
        {"Shift+Wheel, horizontal wheel", "Pan"},
        {"Drag, middle-button drag", "Pan"},
        {"Shift+Drag, drag on the time axis", "Zoom to the dragged range"},
        {"Click", "Select what is under the cursor"},
        {"Double-click a group row", "Expand or collapse the group"},
        {"+ / -", "Zoom in / out"},
        {"0, Home", "Show the whole run"},
        {"Left / Right", "Pan"},
        {"N / P", "Next / previous MPI call of the selected rank"},
        {"Mouse back / forward buttons", "Previous / next zoom and pan state"},
        {"Esc", "Clear the selection"},
        {"Enter / Shift+Enter in the find bar", "Next / previous occurrence"}};
    for (const auto& [keys, what] : timeline)
        html += row(QObject::tr(keys), QObject::tr(what));
    html += QStringLiteral("</table><h3>%1</h3><table>").arg(QObject::tr("In the Bookmarks panel"));
    const std::pair<const char*, const char*> bookmarks[] = {
        {"Double-click, Enter", "Show the bookmark's range (Alt+Left returns)"},
        {"F2", "Rename the selected bookmark"},
        {"Del", "Delete the selected bookmark"},
        {"Ctrl+Z / Ctrl+Shift+Z", "Undo / redo adding, renaming or deleting"}};
    for (const auto& [keys, what] : bookmarks)
        html += row(QObject::tr(keys), QObject::tr(what));
    return html + QStringLiteral("</table>");
}

QString aboutHtml()
{
    QString html =
        QStringLiteral("<h2>Rankscope %1</h2><p>%2</p><p>%3</p>")
            .arg(QApplication::applicationVersion().toHtmlEscaped(),
                 QObject::tr("Timelines, profiles, wait states and what-if predictions of MPI "
                             "traces."),
                 QObject::tr("Built with Qt %1, running on Qt %2.")
                     .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion())));
    html += QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Bundled demo traces"));
    const QString dir = WhatIfController::resourceDir();
    const QDir traces(dir + QStringLiteral("/demo/traces"));
    const QStringList licences =
        dir.isEmpty() ? QStringList()
                      : traces.entryList({QStringLiteral("LICENSE-*")}, QDir::Files, QDir::Name);
    if (licences.isEmpty())
        html += QStringLiteral("<p>%1</p>")
                    .arg(QObject::tr("The bundled traces and their licences were not found."));
    for (const QString& name : licences) {
        QFile file(traces.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) continue;
        html += QStringLiteral("<h4>%1</h4><pre style='white-space:pre-wrap'>%2</pre>")
                    .arg(name.toHtmlEscaped(),
                         QString::fromUtf8(file.readAll()).trimmed().toHtmlEscaped());
    }
    return html;
}

void showShortcuts(QWidget* parent, const MainActions* actions)
{
    textWindow(parent, QStringLiteral("shortcutSheet"), QObject::tr("Keyboard Shortcuts"),
               shortcutsHtml(actions), QSize(620, 720));
}

void showAbout(QWidget* parent)
{
    textWindow(parent, QStringLiteral("aboutBox"), QObject::tr("About Rankscope"), aboutHtml(),
               QSize(640, 560));
}

QString emptyWindowHint()
{
    return QObject::tr("<p style='font-size:large'>Open an MPI trace</p>"
                       "<p>File &gt; Open (Ctrl+O), drop an OTF2 anchor file "
                       "(traces.otf2) or its folder,<br>a Paraver .prv, a Paje .paje or a "
                       "SimGrid .ti here, or pass traces on the command line.</p>");
}

} // namespace rankscope::HelpDialogs
