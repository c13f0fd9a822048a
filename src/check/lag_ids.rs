//! Port-channel numbers against the OS: a LAG whose `id` is above the largest
//! port-channel number its switch's OS accepts (`port_channel_max` in
//! templates/<vendor>/vendor.yaml, from the OS manual) would be a configuration line the
//! switch rejects (E0116). Id 0 is refused at parse time for every OS (E0114).

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};
use crate::vendor::vendors;

/// E0116 once per LAG, against the most restrictive OS among its switches.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let Ok(vendors) = vendors() else { return };
    let m = cx.m;
    for lag in &m.lags {
        let switches = m.lag_switches(lag);
        let worst = switches
            .into_iter()
            .filter_map(|s| {
                let sw = &m.switches[s];
                let (folder, f) = vendors.flavour(&sw.vendor, sw.os.as_str())?;
                Some((f.port_channel_max?, s, folder, f.title.as_str()))
            })
            .filter(|(max, ..)| lag.id > *max)
            .min_by_key(|(max, s, ..)| (*max, *s));
        let Some((max, s, folder, title)) = worst else {
            continue;
        };
        let sw = &m.switches[s].name.value;
        diags.push(
            Diagnostic::new(
                codes::PORT_CHANNEL_ID,
                lag.id_span,
                format!(
                    "port-channel {} is above the {max} that {title} on `{sw}` accepts",
                    lag.id
                ),
            )
            .label(format!("port-channel {}", lag.id))
            .help(format!(
                "use a LAG `id` from 1 to {max}: {title} numbers port-channels from 1 to {max} \
                 (templates/{folder}/vendor.yaml, `port_channel_max`)"
            )),
        );
    }
}
