/// Process exit statuses (sysexits.h).
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let unavailable: Int32 = 69
    public static let ioError: Int32 = 74
    public static let permission: Int32 = 77
    public static let config: Int32 = 78
    /// `puckd run` stopped cleanly but its final state save failed (EX_IOERR).
    public static let stateNotSaved: Int32 = 74
}
