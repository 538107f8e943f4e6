#include "app/sessionscreenshots.h"

#include "app/eventwait.h"
#include "app/mainwindow.h"
#include "views/whatif/whatifcomparison.h"

#include <QDir>
#include <QImage>
#include <QRegularExpression>
#include <QTabWidget>
#include <cstdio>

namespace rankscope::SessionScreenshots {

void printError(const QString& message)
{
    std::fprintf(stderr, "rankscope: %s\n", qPrintable(message));
}

bool openForScreenshots(MainWindow& window, const QString& session, const QString& dir, QSize size,
                        int seconds, const QString& timeoutText, int* errors)
{
    if (!QDir().mkpath(dir)) {
        printError(QStringLiteral("cannot create %1").arg(dir));
        return false;
    }
    window.setInteractive(false);
    window.resize(size);
    QObject::connect(&window, &MainWindow::errorReported,
                     [errors](const QString& title, const QString& message) {
                         ++*errors;
                         printError(title + QStringLiteral(": ") + message);
                     });
    window.show();
    bool restored = false;
    QObject::connect(&window, &MainWindow::sessionRestored, [&restored] { restored = true; });
    if (!window.openSession(session)) return false;
    if (!restored && !waitForSignal(&window, &MainWindow::sessionRestored, seconds)) {
        printError(timeoutText);
        return false;
    }
    return true;
}

QString fileName(int index, const QString& title)
{
    QString slug = title.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug = slug.left(60);
    while (slug.startsWith('-'))
        slug.remove(0, 1);
    while (slug.endsWith('-'))
        slug.chop(1);
    return QStringLiteral("%1-%2.png")
        .arg(index + 1, 2, 10, QLatin1Char('0'))
        .arg(slug.isEmpty() ? QStringLiteral("tab") : slug);
}

int render(const QString& session, const QString& dir, QSize size)
{
    MainWindow window;
    int errors = 0;
    // Loads and re-runs of results: generous, as a sweep of a large trace takes minutes.
    if (!openForScreenshots(window, session, dir, size, 1800,
                            QStringLiteral("the session did not come back within 30 minutes"),
                            &errors))
        return 1;
    QTabWidget* tabs = window.tabs();
    if (tabs->count() == 0) {
        printError(QStringLiteral("%1 restored no tab").arg(session));
        return 1;
    }
    const int current = tabs->currentIndex();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        settleEvents();
        const QString file = QDir(dir).filePath(fileName(i, tabs->tabText(i)));
        if (!window.grab().toImage().save(file, "PNG")) {
            printError(QStringLiteral("cannot write %1").arg(file));
            ++errors;
            continue;
        }
        std::printf("%s\n", qPrintable(QDir::toNativeSeparators(file)));
        // A replay's network view too, as a second picture of its tab.
        auto* comparison = qobject_cast<WhatIfComparison*>(tabs->widget(i));
        if (!comparison || !comparison->networkView()) continue;
        comparison->showPane(QStringLiteral("network"));
        settleEvents();
        const QString network =
            QDir(dir).filePath(fileName(i, tabs->tabText(i) + QStringLiteral(" network")));
        if (!window.grab().toImage().save(network, "PNG")) {
            printError(QStringLiteral("cannot write %1").arg(network));
            ++errors;
            continue;
        }
        std::printf("%s\n", qPrintable(QDir::toNativeSeparators(network)));
    }
    tabs->setCurrentIndex(current);
    std::fprintf(stderr, "rankscope: %lld tabs of %s written to %s\n",
                 static_cast<long long>(tabs->count()), qPrintable(session),
                 qPrintable(QDir::toNativeSeparators(dir)));
    return errors == 0 ? 0 : 1;
}

} // namespace rankscope::SessionScreenshots
