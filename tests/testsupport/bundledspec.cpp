#include "testsupport/bundledspec.h"

#include "testsupport/testpaths.h"

namespace rankscope::test {

netsim::NetworkSpec bundledSpec(const std::string& name)
{
    const QString path = testData(
        QStringLiteral("../../resources/networks/%1.yaml").arg(QString::fromStdString(name)));
    return netsim::NetworkSpec::fromFile(path.toStdString());
}

} // namespace rankscope::test
