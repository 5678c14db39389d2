-- The latest health report of each station per event (issue 18): what the organizer's station
-- list shows. One row per event and device, replaced by each report; received_at is the hub's
-- clock at arrival (the station's last contact), station_time the station's own clock.
CREATE TABLE station_reports (
    event_id TEXT NOT NULL REFERENCES events(id),
    device_id TEXT NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    pending INTEGER NOT NULL,
    printer_state TEXT,
    printer_words TEXT,
    camera_state TEXT,
    camera_words TEXT,
    staff_name TEXT NOT NULL,
    station_time BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, device_id)
);
