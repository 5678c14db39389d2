/// The demo roster `kiosk run` imports by itself on a fresh data directory with no hub, so the
/// README's run command gives a working station at once (same rows as Kiosk/demo-roster.csv;
/// a test keeps the two equal).
public enum DemoRoster {
    public static let csv = """
        name,email,company,code,access_type
        José Müller,jose.muller@example.com,ACME Events,DEMO-0001,VIP
        Ødegård Ås,odegard@example.no,Fjord AS,DEMO-0002,General
        王小明,wang.xiaoming@example.cn,北京科技,DEMO-0003,General
        Ana Sofía Pérez,ana@example.es,Madrid Media,DEMO-0004,Speaker
        Дмитрий Иванов,dmitri@example.ru,Sever,DEMO-0005,General
        Νίκος Παπαδόπουλος,nikos@example.gr,Aegean Ltd,DEMO-0006,Exhibitor
        Zoë O'Brien,zoe@example.ie,,DEMO-0007,General
        Ahmed Al-Farsi,ahmed@example.ae,Gulf Tech,DEMO-0008,VIP
        """
}
