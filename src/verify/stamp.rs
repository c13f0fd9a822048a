//! The time in a result's name, as the host scripts write it (`date -u
//! +%Y%m%dT%H%M%SZ`): a counter snapshot whose reply carries no time of reading (OS10's
//! RESTCONF) is timed by its name; the twin names its results with [`format`].

/// Seconds since the Unix epoch of `20261129T023100Z`; `None` for any other name.
pub(crate) fn seconds(when: &str) -> Option<f64> {
    let b = when.as_bytes();
    if b.len() != 16 || b[8] != b'T' || b[15] != b'Z' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = when.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(4..6)?, num(6..8)?);
    let (hh, mm, ss) = (num(9..11)?, num(11..13)?, num(13..15)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    Some((days(y, m, d) * 86_400 + hh * 3600 + mm * 60 + ss) as f64)
}

/// `20261129T023100Z` for seconds since the Unix epoch (the inverse of [`seconds`]).
pub(crate) fn format(unix: u64) -> String {
    let secs = unix as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil(days);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_read_as_unix_seconds() {
        assert_eq!(seconds("19700101T000000Z"), Some(0.0));
        // `date -u -d 2026-11-29T02:31:00Z +%s`
        assert_eq!(seconds("20261129T023100Z"), Some(1_795_919_460.0));
        assert_eq!(seconds("20240229T000010Z"), Some(1_709_164_810.0));
        for t in [0, 1_795_919_460, 1_709_164_810, 951_782_400, 4_102_444_799] {
            assert_eq!(seconds(&format(t)), Some(t as f64), "{t}");
        }
        assert_eq!(format(1_795_919_460), "20261129T023100Z");
        for bad in [
            "T",
            "1",
            "20261329T000000Z",
            "2026112XT000000Z",
            "20261129 023100Z",
        ] {
            assert_eq!(seconds(bad), None, "{bad}");
        }
    }
}
