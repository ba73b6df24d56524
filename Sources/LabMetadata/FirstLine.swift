/// Every failure message's first line states the diagnosis, in at most `limit` characters; long data (URLs, JSON,
/// compared values) follows on later lines. `LabTestCase` shapes messages so; `lab mutants` counts any that are not.
public enum FirstLine {
    public static let limit = 200
}
