//! Every diagnostic code democ can emit, with its default severity and the text
//! `democ explain CODE` prints. Codes are stable: never renumber, only add.

use super::Severity;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    severity: Severity,
    pub(crate) explain: &'static str,
}

impl Code {
    pub(crate) fn severity(self) -> Severity {
        self.severity
    }
}

macro_rules! codes {
    ($($konst:ident = $id:literal $name:literal $sev:ident $explain:literal;)*) => {
        $(pub(crate) const $konst: Code = Code { id: $id, name: $name, severity: Severity::$sev, explain: $explain };)*
        /// All codes, in numeric order.
        pub(crate) const ALL: &[Code] = &[$($konst),*];
    };
}

codes! {
    // ---- input: files and YAML -------------------------------------------------------
    IO = "E0001" "io" Error
        "A file the spec names (the spec itself, an include or a catalog file) could not be read: \
         it is missing, unreadable, or not a regular file (a FIFO, a device, a folder). democ \
         reads only regular files, so that a named pipe or `/dev/zero` cannot make it hang.";
    YAML_SYNTAX = "E0002" "yaml-syntax" Error
        "The text is not valid YAML: an unclosed bracket or quote, a tab used for indentation, a key \
         without a value, bad indentation. The location points at where the YAML parser gave up.";
    DUPLICATE_KEY = "E0003" "duplicate-key" Error
        "The same key appears twice in one mapping. YAML parsers disagree on which one wins, so \
         democ refuses both. Remove one of them.";
    WRONG_TYPE = "E0004" "wrong-type" Error
        "A value has the wrong shape: a list where a mapping is expected, text where a number is \
         expected, and so on.";
    UNKNOWN_FIELD = "E0005" "unknown-field" Error
        "A key is not part of the spec format at this place. This is usually a typo; the help line \
         names the closest known field. `democ schema` prints every field.";
    MISSING_FIELD = "E0006" "missing-field" Error
        "A required key is absent.";
    INVALID_VALUE = "E0007" "invalid-value" Error
        "A value has the right type but is not allowed: an unknown keyword, a malformed rate or \
         length, an address that does not parse, a negative or zero quantity.";
    INCLUDE_CYCLE = "E0008" "include-cycle" Error
        "A file includes itself, directly or through other files.";
    LIMIT = "E0009" "limit-exceeded" Error
        "The input is beyond one of democ's safety limits (file size, YAML nesting depth, alias \
         expansion, number or depth of includes, size of a name range). The limits exist so that \
         a malformed or hostile spec cannot make democ hang or exhaust memory.";
    BAD_NAME = "E0010" "invalid-name" Error
        "Names of sites, switches, hosts, links, flows and fabrics end up in device configs and \
         shell scripts, so they are restricted to letters, digits, `-`, `_` and `.`, starting \
         with a letter or digit, at most 63 characters.";
    BAD_ENCODING = "E0011" "encoding" Error
        "A spec file must be UTF-8 text. A UTF-8 byte-order mark is accepted and ignored; other \
         encodings (UTF-16, UTF-32, Latin-1 bytes) are refused.";
    INCLUDE_OUTSIDE = "E0012" "include-outside" Error
        "An include resolves (after following symlinks) to a file outside the main spec's folder \
         and its subfolders. Includes are confined to the show's folder so that a spec cannot \
         make democ read, or show in a diagnostic, a file that is not part of the show \
         (`../../etc/passwd`, `/proc/self/environ`, a symlink to a private key). The refused \
         file is not opened. To include shared files from another folder on purpose, name it \
         with `--allow-include-outside DIR`.";
    BAD_ARGUMENT = "E0013" "bad-argument" Error
        "A command-line argument (or an answer to one of `democ init`'s questions) names \
         something democ cannot use: a catalog model that is not in the catalog, a name that \
         breaks the naming rules, or a choice that cannot be built (a switch with no port at \
         the NIC's speeds, a WAN longer than every optic reaches). The location is the \
         argument on the command line; the help line names the catalog entries that would do \
         (`democ catalog` lists them all with their titles).";
    // ---- references and names -------------------------------------------------------------
    UNKNOWN_REF = "E0101" "unknown-reference" Error
        "A name refers to a site, switch, host, port owner or fabric that is not declared. The \
         help line suggests the closest declared name.";
    DUPLICATE_NAME = "E0102" "duplicate-name" Error
        "Two things of the same namespace share a name. Switches and hosts share one namespace \
         (both are link endpoints), so a switch and a host may not have the same name.";
    UNKNOWN_MODEL = "E0103" "unknown-model" Error
        "A hardware model is not in the catalog. `democ catalog` lists the embedded catalog; add \
         your own entries under `catalog:` in the spec or with `--catalog DIR`.";
    UNKNOWN_PORT = "E0104" "unknown-port" Error
        "A port does not exist on the device's model (or, after breakout, the subport does not \
         exist). Port names follow the model's catalog entry: `1/1`..`1/32` on a 32-port switch, \
         `1/17:1`..`1/17:4` once `1/17` is broken out into four; NIC ports are named in the host.";
    PORT_REUSED = "E0105" "port-reused" Error
        "A port is cabled twice (by two links, or by a link and a WAN connection). Each physical \
         port carries exactly one cable.";
    PORT_SPEED = "E0106" "port-speed" Error
        "A port is asked to run at a speed or breakout mode its model does not support.";
    LINK_SPEED_MISMATCH = "E0107" "link-speed-mismatch" Error
        "The two ends of a link run at different speeds, so the link would not come up.";
    POOL_OVERLAP = "E0108" "pool-overlap" Error
        "Two address pools overlap, so the same address could be handed out twice.";
    POOL_EXHAUSTED = "E0109" "pool-exhausted" Error
        "An address pool is too small for everything that draws from it.";
    ADDRESS_OUTSIDE_POOL = "E0110" "address-outside-pool" Error
        "A static address is outside the pool it belongs to.";
    DUPLICATE_ADDRESS = "E0111" "duplicate-address" Error
        "The same address is given to two interfaces.";
    SELF_LINK = "E0112" "self-link" Error
        "A link or flow has the same endpoint on both sides.";
    CAPABILITY = "E0113" "unsupported" Error
        "The spec asks a device for something its model or OS cannot do (an OS the model does not \
         run, an OpenFlow mode the OS lacks, an MTU above the model's maximum).";
    OUT_OF_RANGE = "E0114" "out-of-range" Error
        "A number is outside the range its meaning allows, though its type would hold it: a \
         VLAN id of 0 or 4095 (802.1Q reserves both), AS 0, an MTU below 1280 (IPv6's minimum; \
         no data-transfer show runs smaller), a PCIe MaxPayloadSize that is not a power of two \
         from 128 to 4096, more than 128 TCP streams per pair (iperf3's limit), a negative \
         latency, length or loss (a negative latency made routing loop forever), a length past \
         the earth's circumference. The help line gives the range and the reason. The schema \
         (`democ schema`) carries the same minimum and maximum.";
    SHELL_NAME_CLASH = "E0115" "shell-name-clash" Error
        "Two ports of one host map to the same shell variable in the host scripts. The scripts \
         let the operator name each port's kernel interface through `IF_<port>` (`IF_p0=ens1f0np0`), \
         and a variable holds only letters, digits and `_`, so `-`, `.`, `/` and `:` become `_`: \
         `p-0` and `p.0` are both `IF_p_0`, and the second port's address would land on the first \
         port's interface. Rename one of the ports.";
    PORT_CHANNEL_ID = "E0116" "port-channel-id" Error
        "A LAG's `id` is above the largest port-channel number its switch's OS accepts, so the \
         switch would reject the configuration line. The maximum is vendor data \
         (`port_channel_max` in templates/<vendor>/vendor.yaml, from the OS manual: 128 on Dell \
         OS10 and FTOS 9, 2000 on Arista EOS). Pick a number from 1 to the maximum.";
    LAG_PLACEMENT = "E0117" "lag-placement" Error
        "A LAG asks for `placement: openflow`, and democ cannot pin its pairs to members. Such a \
         LAG is no port-channel: every member is an OpenFlow port of its own at both ends, and \
         democ's rules send each host pair over one member, chosen to balance the demand, so no \
         hash decides. That needs both ends on switches with every member port under the \
         controller (`openflow.ports`, or a pure or OVS mode switch); a port-channel's members are \
         no OpenFlow ports on the OSes democ configures (the port-channel is one OpenFlow port), \
         so nothing less can pin. With no port-channel there is no LACP either: drop `lacp:`.";
    PATH_LOOP = "E0118" "path-loop" Error
        "A flow's `path:` names a switch twice. Traffic that comes back to a switch it has \
         crossed is a forwarding loop: the switch would need two different rules for the same \
         packets, and every lap would load the links again. List each switch once, in the \
         order the traffic crosses them.";
    DUPLICATE_PORT_CHANNEL = "E0120" "duplicate-port-channel" Error
        "Two `links:` entries give a switch two LAGs with the same `lag: { id }`, which would be \
         two port-channels with one number. democ does not merge them (the entries may disagree \
         on LACP, VLANs or the far end): write the members as one link with port ranges, or \
         give each port-channel its own id.";
    SLOT_TAKEN = "E0121" "slot-taken" Error
        "Two cards are declared in one PCIe slot of a host: two NICs, a NIC and an NVMe add-in \
         card, or two NVMe entries. A slot holds one card (a carrier card with several drives is \
         one `nvme:` entry with a `count`). Move one card to a free slot of the chassis \
         (`democ catalog` lists its slots).";
    UNCABLED_PORT = "W0122" "uncabled-port" Warning
        "A host names a NIC port in `ports:` that no link cables. democ gives it no address and \
         its host script configures nothing on it, so a transfer planned over it would not run; \
         usually a link is missing (or names another port). Cable it, or drop the name from \
         the NIC's `ports:` (a card may have more ports than the show uses).";
    // ---- the address lock (democ.lock) ----------------------------------------------------
    LOCK_INVALID = "E0130" "lock-invalid" Error
        "The address lock beside the spec (`democ.lock`, or `NAME.democ.lock` beside a spec \
         not named `show.yaml`) cannot be used: it is unreadable, not UTF-8, not YAML, or not \
         the shape `democ build` writes (`version: 1` and the `hosts:`, `links:` and \
         `switches:` mappings of names to IPv4 addresses). democ does not guess at a damaged \
         lock, since allocating around half of it would renumber the show. Restore it from \
         version control, or delete it (or pass `--no-lock`) to allocate every address afresh.";
    LOCK_ENTRY_DROPPED = "N0131" "lock-entry-dropped" Note
        "An entry of the address lock is not kept: what it names (a host port, a routed link \
         between two switch ports, a switch) is no longer in the spec or no longer takes its \
         address from a pool, the spec now gives it an address itself (addresses written in \
         the spec always win), or its address is now outside its pool or taken by something \
         the spec declares. The thing, if it still exists, gets a new address from the free \
         space of its pool, and the next `democ build` writes the lock without the entry. A \
         note, not a warning: nothing is wrong with the show.";
    LOCK_OUTDATED = "E0132" "lock-outdated" Error
        "`--locked` was given and the address lock would change: an address would be added \
         (a new host port, routed link or switch, or a lock that does not exist yet), dropped \
         or moved. For CI, where a stale committed lock means the next build renumbers \
         something. Build without `--locked` and commit the lock it writes.";
    // ---- feasibility ----------------------------------------------------------------------
    NO_PATH = "E0201" "no-path" Error
        "A flow pair cannot be routed: the hosts are not connected, or an explicit `path:` names \
         switches that are not cabled to each other.";
    // ---- feasibility: optics, OTN, MTU, TCP windows, OpenFlow tables ----------------------
    OPTICAL_BUDGET = "E0210" "optical-budget" Error
        "The optical power budget of a fiber link does not close: the loss of the plant (length x \
         attenuation at the optic's band, plus connectors and splices, figures from the catalog's \
         `physics:`) is larger than what the optics can lose (minimum launch power minus receiver \
         sensitivity, or the published maximum channel loss). The link will not come up. The help \
         line names a catalog optic that closes the span or, when none does, says what fits the \
         span: amplification or an OTN/coherent transponder on single-mode, fewer connections or \
         single-mode fiber on a multimode run.";
    OPTICAL_MARGIN = "W0211" "optical-margin" Warning
        "The optical budget of a fiber link closes, but with less margin than required \
         (`show.defaults.optics_margin_db`, default from the catalog's physics). Ageing, dirty \
         connectors and repairs eat margin; the link may flap or run with errors. An optic whose \
         budget is a standard's maximum channel insertion loss (IEEE 802.3's multimode budgets \
         among them) needs no margin on top: the standard allocated it already. The report's optics \
         table and every help apply the same rule.";
    OPTIC_REACH = "E0212" "optic-reach" Error
        "A fiber link is longer than the optic's rated reach. Beyond it, dispersion (not only \
         power) closes the eye, so a good power budget does not save the link.";
    OPTIC_MISMATCH = "E0213" "optic-mismatch" Error
        "The two ends of a link carry different optics that cannot talk to each other: they differ \
         in rate, fiber type or wavelength band. Optics of the same PMD in different form factors \
         (an LR4 in QSFP28 and one in CFP) do interoperate and are accepted.";
    FIBER_MISMATCH = "E0214" "fiber-mismatch" Error
        "An optic is made for another fiber type than the WAN's or the OTN client run's (a \
         multimode optic on single-mode fiber, or the reverse).";
    OPTIC_RATE = "E0215" "optic-rate" Error
        "An optic's rate differs from the speed the port runs at (after breakout: a 100G optic \
         feeding a 4x25G breakout is accepted).";
    MISSING_OPTIC = "W0216" "missing-optic" Warning
        "A fiber link names no optic, so its power budget and reach cannot be checked and the \
         bill of materials misses two pluggables. Add `optic:` (and `optic_b:` when the ends \
         differ).";
    OPTIC_FEC = "W0217" "optic-fec" Warning
        "The optic needs host RS-FEC to reach its rated distance, but a port at either end has FEC \
         set to `none` or `fc`.";
    OPTIC_FIGURES = "W0218" "optic-figures" Warning
        "The optical budget cannot be computed: the catalog entry gives neither launch power and \
         receiver sensitivity nor a maximum channel loss, or the catalog's physics has no \
         attenuation for the optic's band. Add the figures to the catalog.";
    CABLE_LANES = "E0219" "cable-lanes" Error
        "A copper or active cable (`media: dac` or `media: aoc`) joins two ports that cannot \
         run the link's speed on the same electrical lanes. Such a cable passes each lane \
         through unchanged, so both cages must use the same number of lanes at the same lane \
         rate: a 400G QSFP-DD switch port runs 8 lanes of 50G PAM4, a ConnectX-7 OSFP or a \
         QSFP112 card 4 lanes of 100G PAM4, and no passive cable joins them at 400G. The lanes \
         of each cage are catalog data (`electrical:` of switch port groups and NICs). Optics \
         retime: use `media: fiber` with an optic at each end whose host side fits its own \
         cage (the help names a pair), run the link at a speed both cages share on the same \
         lanes, or cable another port whose lanes match.";
    OTN_CLIENT = "E0220" "otn-client" Error
        "No OTN line signal in the catalog carries this client (10GE maps to OTU2e, 40GE to OTU3, \
         100GE to OTU4, n x 100GE to OTUCn). Use a client the catalog maps, or add an `otn:` \
         catalog entry.";
    OTN_CLIENT_RUN = "E0221" "otn-client-run" Error
        "`client_a:` and `client_b:` describe the client side of an OTN link: the fiber between a \
         switch port and the client port of the transponder (or muxponder) that maps it into OTN, \
         with its optics, length and fiber type. They belong to `kind: otn` WAN links only: on \
         dark fiber the two optics face each other over the span (`optic:`, `length_km:`), and a \
         circuit hands off to the carrier's equipment. Remove them, or make the link `kind: otn`.";
    OPTIC_CAGE = "E0222" "optic-cage" Error
        "An optic does not fit the port it is written for: its form factor is of another \
         family than the cage (an OSFP module in a QSFP-DD cage, a QSFP-DD module in an \
         OSFP cage), or its host side needs more electrical lanes, or faster ones, than the \
         cage has (a QSFP-DD module in a QSFP28 cage). A QSFP module fits any QSFP-family \
         cage with enough lanes (a QSFP28 in a QSFP-DD). Both figures are catalog data \
         (`form:` and `electrical:` of the optic, the port group and the NIC). Pick the \
         optic of the same PMD made for this cage: the help names one.";
    OTN_CLIENT_OPTIC = "W0223" "otn-client-optic" Warning
        "OTN hand-offs name no client optic: neither the WAN entry's `optic:` nor a \
         `client_a:` / `client_b:` run. Every hand-off still needs one pluggable in the \
         switch port and one in the transponder's client port, so the bill of materials \
         orders the catalog's default client optic for the signal (`client_optic:` of the \
         `otn:` entry) at both. The warning names the default and the hand-offs; write \
         `optic:` on the WAN entry, or describe the client runs, to order what you plan.";
    PATH_MTU = "E0225" "path-mtu" Error
        "A host's MTU is larger than what a link, LAG or WAN circuit on the route of one of its \
         flows carries. Switches drop oversized frames without telling anyone (no ICMP at layer \
         2), so large transfers stall. Lower the host MTU or raise the MTU of the hop.";
    FRAME_MTU = "E0226" "frame-mtu" Error
        "A switch port's MTU (a layer-2 frame size) does not hold the largest packet a host on a \
         route through it sends, plus 22 bytes of Ethernet header (14), 802.1Q tag (4) and FCS (4). \
         The port MTU comes from the port's override, else `show.defaults.switch_mtu`, else the \
         model's maximum.";
    CABLE_REACH = "E0227" "cable-reach" Error
        "A cable is longer than its medium carries at the link's speed. Passive direct-attach \
         copper (`media: dac`) reaches a few metres (5 m at 25G and 100G, 7 m at 10G and 40G, \
         3 m at 200G and 400G), an active optical cable (`media: aoc`) about 100 m. The reach \
         per medium and speed is catalog data (`cables:`, catalog/cables.yaml, with sources). \
         Use optics and fiber (`media: fiber` with an `optic:`) for longer runs.";
    SERVER_PORTS = "E0228" "server-ports" Error
        "A host receives more test pairs than it has TCP ports for their servers. The host \
         scripts start one test server (iperf3 or ib_write_bw) per routed pair on the receiving \
         host, on its own port counted up from `first_port` in templates/linux/tuning.yaml \
         (5201, iperf3's default) to 65535, the last TCP port. democ refuses rather than \
         spreading the servers onto ports below 5201: those belong to other services, and \
         tens of thousands of server processes on one host are not a throughput test. Spread \
         the flows over more receiving hosts.";
    TCP_STREAMS = "W0230" "tcp-streams" Warning
        "A TCP flow pair's bandwidth-delay product (rate x RTT / 8) is larger than the declared \
         streams can hold: each stream's window is capped by the largest Linux socket buffer \
         (net.core.rmem_max, at most 2 GiB - 1), so the flow cannot reach its rate. The help line \
         says how many streams are needed.";
    BUFFER_MEMORY = "W0231" "buffer-memory" Warning
        "The TCP socket buffers a host needs for the bandwidth-delay products of its flows (send \
         buffers as a source, receive buffers as a sink) take more than half of its memory.";
    RTT_LENGTH = "W0232" "rtt-length" Warning
        "A WAN link declares both `rtt_ms` and `length_km`, and the two disagree: the RTT of \
         that length of fiber (2 x length x the catalog's fiber delay, 5 us/km) differs from \
         the declared RTT by more than the catalog's `rtt_length_margin` (25 %). democ takes \
         the declared RTT for every latency (the path RTT, bandwidth-delay products, PFC reach): \
         a measured figure includes the route's detours and devices, which the length leaves \
         out. Below the fiber's RTT it is faster than light in glass; far above it, the length \
         is not the route's. Check both figures with the circuit's provider.";
    OPENFLOW_TABLE = "E0235" "openflow-table" Error
        "An OpenFlow switch needs more flow entries than its model's table holds. Each flow pair \
         crossing the switch needs 4 entries (IPv4 and ARP, both directions, as Floodlight's \
         circuitpusher installs them) plus one table-miss entry per switch.";
    OPENFLOW_TABLE_FULL = "W0236" "openflow-table-full" Warning
        "An OpenFlow switch's flow table would be filled above the warning threshold (default \
         90 %, `show.defaults.warn_utilization`): little room for the controller's own entries \
         or a re-route.";
    OPENFLOW_CONTROLLER = "E0237" "openflow-controller" Error
        "A switch runs OpenFlow but no controller is set, neither on the switch \
         (`openflow.controller`) nor for the show (`show.defaults.openflow.controller`). A pure \
         OpenFlow switch without a controller forwards nothing.";
    PCIE_LANES = "E0240" "pcie-lanes" Error
        "The slots and PCIe switches a chassis wires to a socket need more lanes than the CPU in \
         that socket has, or a card sits in a slot of an unpopulated socket.";
    PCIE_BANDWIDTH = "W0241" "pcie-bandwidth" Warning
        "A card, a PCIe switch uplink or a chipset's DMI cannot pass what sits behind it. Usable \
         PCIe bandwidth is effective DMA bandwidth (Neugebauer et al., SIGCOMM 2018): the raw rate \
         (GT/s x lanes) times the line encoding, less SKP ordered sets and the Ack/UpdateFC DLLPs, \
         less the TLP headers of writes (a NIC receiving, a drive being read) or of read requests \
         and completions (a NIC sending, a drive being written) at the platform's MaxPayloadSize \
         and MaxReadRequestSize, and for a NIC its descriptors, write-backs, doorbells and \
         interrupts; where the direction is unknown the lower one. A card negotiates the lower \
         generation and width of card, slot and any `pcie:` training the spec declares: a 40GE \
         NIC in a Gen2 x8 slot cannot pass 40G.";
    NUMA = "W0242" "numa" Warning
        "A disk flow moves data between NVMe drives and a NIC attached to different CPU sockets: \
         every byte crosses the socket interconnect and the interrupts land on the wrong cores. \
         ESnet's fasterdata measures up to 2x loss. Move a card, or pin the application with \
         `numactl -N <socket>` on the NIC's socket.";
    STORAGE = "W0243" "storage" Warning
        "The NVMe drives of a host cannot read (source) or write (sink) as fast as the disk flows \
         using them need: per-drive sequential figure x count, bounded by the PCIe path the drives \
         sit behind. The help line says how many drives are missing.";
    CPU_STREAMS = "W0244" "cpu-streams" Warning
        "A TCP flow declares fewer parallel streams than its rate needs at the CPU's per-stream \
         figure (one core drives one stream; the figure comes from the CPU catalog).";
    OVERSUBSCRIBED = "E0245" "oversubscribed" Error
        "The flows routed over a link, LAG, OTN client or WAN circuit ask for more than it carries \
         in one direction.";
    HIGH_UTILIZATION = "W0246" "high-utilization" Warning
        "The flows routed over a link use more than the warning threshold (default 90 %, \
         `show.defaults.warn_utilization`) of its capacity: no headroom for retransmissions or \
         other traffic.";
    SHORTFALL = "W0247" "shortfall" Warning
        "A flow is predicted to reach less than 95 % of its declared rate. The label names the \
         bottleneck; `democ plan` lists every limit.";
    LAG_HASHING = "W0248" "lag-hashing" Warning
        "A LAG carries fewer streams than it needs to spread its load. A switch puts each \
         stream on a member by a hash of its headers, so streams land on members at random: \
         with k streams on n members about n(1 - (1 - 1/n)^k) members are busy (ten streams on \
         ten members keep 6.5 busy), and when each stream wants a full member the busy ones \
         are all the LAG carries. The message gives the expected share and the worst case (every \
         stream on one member); the help gives the stream count that reaches the demand. What \
         is hashed is the sending switch's default (catalog `lag_hash`, with its source): with \
         the L4 ports (`l3-l4`) each stream lands on its own, with the addresses only (`l3`) all \
         streams of a pair share one member, so k counts pairs and more streams do not help. \
         Other fixes: more members than streams, or, when every member is under the controller at both \
         ends, `placement: openflow` on the LAG: democ's rules then pin each host pair to a \
         member (E0117 says when that cannot be), and the prediction counts no hashing loss. \
         Pinning gives up failover: a pair pinned to a member that goes down is lost until \
         the rules are rewritten, where a port-channel would rehash it.";
    // ---- the control plane: controller, management network, routes -----------------------
    CONTROLLER_DATA_PLANE = "E0250" "controller-data-plane" Error
        "Switches reach their OpenFlow controller out of band (`show.management.controller_via: \
         mgmt`, the default): from their management port, over the management network. The \
         controller's address is a data-plane address (a host's data port, or inside the `dtn` or \
         `p2p` pool), which the management network does not reach; and the data ports on the way \
         may be OpenFlow ports that forward nothing until the controller has installed flows, so \
         the control channel would never start. Point the switches at the controller host's \
         management address, or choose `controller_via: inband` where every port on the way is \
         legacy-forwarded.";
    MANAGEMENT_ROUTE = "E0251" "management-route" Error
        "An OpenFlow switch cannot reach its controller over the management network: it has no \
         management address (set `mgmt:` or `addressing.mgmt`), or the controller is off the \
         management network and `show.management` names no `gateway` to route through.";
    INBAND_OPENFLOW = "E0252" "inband-openflow" Error
        "With `show.management.controller_via: inband` the control channel rides data ports. A \
         port under OpenFlow forwards nothing until the controller has installed flows, so every \
         port from the switch to the controller's own port must be legacy-forwarded (left out of \
         a hybrid switch's `openflow.ports`, or by default a link with an explicit `mode:`, an \
         address, a circuit VLAN or a LAG). The error \
         names the first OpenFlow port on the way; democ also needs the controller to be a \
         declared host's data address to follow the way.";
    MISSING_ROUTE = "E0253" "missing-route" Error
        "A flow's path crosses a routed hop (a switch port with an address: a routed link or a \
         BGP circuit), and the switch before that hop has no route to the packet's destination \
         in the control plane democ configures: no connected subnet, no static route, and no \
         prefix BGP learns along the declared sessions. Both directions are checked (TCP and \
         RDMA need the return path too); the error names the switch that would drop the packets. \
         A connected topology is not enough: routers forward only what their tables hold.";
    SERVICE_UNREACHABLE = "E0254" "service-unreachable" Error
        "An address in `show.services` (NTP, syslog, SNMP traps, the sFlow collector) is one the \
         switches cannot send to: switches reach their services from the management port, so the \
         address must be on the management network (`addressing.mgmt`) or beyond \
         `show.management.gateway`, and never a data-plane address (a DTN's data port, the `dtn` \
         or `p2p` pools), which the management port has no route to.";
    SERVICE_NO_MANAGEMENT = "W0254" "service-no-management" Warning
        "`show.services` names services, but a switch has no management address, so it cannot \
         reach them: its config leaves them out. Give the switch a `mgmt:` address or set \
         `addressing.mgmt` so democ assigns one.";
    REMOTE_MGMT_SUBNET = "W0257" "remote-mgmt-subnet" Warning
        "A remote site's switches take management addresses from the show floor's \
         `addressing.mgmt` pool and route through the floor's management router, but the \
         circuits to a remote site carry data VLANs, not the floor's management network: \
         nothing reaches those addresses from the floor unless an in-band route carries the \
         subnet there. Give the site its own management network (`sites.<name>.mgmt: { subnet, \
         gateway }`): its switches then take addresses from that subnet and a default route \
         through the site's router.";
    SEGMENT_VLANS = "E0255" "segment-vlans" Error
        "A legacy switch bridges frames only within one VLAN; it never translates one VLAN id \
         into another. A flow's route crosses a run of legacy-switched hops (no port under the \
         controller, no routed port) whose links admit no common VLAN: typically two circuits \
         provisioned on different VLANs, or a circuit and a trunk whose `vlans` leave its VLAN \
         out, meet on one switch. The error names the switch and the two links. Route the flow \
         through a router or an OpenFlow switch between them (its rules retag), provision the \
         circuits on one VLAN, or add the VLAN to the trunk.";
    ACCESS_PORT_VLANS = "E0256" "access-port-vlans" Error
        "A DTN sends untagged frames, so the switch port it is cabled to is an access port in \
         one VLAN. The flows through that port ride segments in two different VLANs (say, one \
         flow over a circuit on its VLAN and another flow on the DTN VLAN), and one access \
         port cannot be in both. Give the other flow's links the circuit's VLAN (`vlan:`), \
         route one of the flows, or cable the DTN with a second port.";
    STATEFUL_MIDDLEBOX = "W0259" "stateful-middlebox" Warning
        "A flow crosses a stateful box inline on a link or circuit (a firewall or an inline IDS \
         that tracks connections). ESnet's Science DMZ guidance is that such boxes not sit in \
         the path of science data: they are built for many slow flows, with small input buffers, \
         so the line-rate bursts of a data-transfer host overflow them and TCP collapses on the \
         loss (fasterdata.es.net, \"Firewall Performance Issues\" and \"Science DMZ Security - \
         Firewalls vs. Router ACLs\"). democ counts the box's declared throughput, MTU and \
         latency, not the loss it causes. Route the flow around the box and protect the hosts \
         with router ACLs, or declare the box stateless if it is.";
    OPENFLOW_BOUNDARY = "E0265" "openflow-boundary" Error
        "A flow's path enters a switch on an OpenFlow port and leaves it on a legacy port (or the \
         reverse), and the switch's OS cannot pass packets between the controller's ports and its \
         own L2/L3 forwarding (Dell FTOS 9: the SDN Deployment Guide's exceptions say legacy \
         switching and routing cannot be enabled on OpenFlow ports; each OS's ability is data in \
         templates/<vendor>/vendor.yaml, `openflow.boundary`). Make the ports on the path \
         consistently OpenFlow (`openflow.ports` in hybrid mode) or consistently legacy.";
    OPENFLOW_LAG = "E0266" "openflow-lag" Error
        "`openflow.ports` names some members of a LAG but not the others. A LAG is forwarded as \
         one port: name all its members or none.";
    OPENFLOW_PORT_CONFIG = "E0267" "openflow-port-config" Error
        "`openflow.ports` names a port whose link sets what only the switch's own forwarding \
         uses: an L2/L3 `mode`, VLANs, an address or a circuit VLAN. An OpenFlow port forwards \
         by the controller's rules alone, so those settings would be dropped from the config. \
         Remove them from the link, or leave the port out of `openflow.ports`.";
    PFC_REACH = "W0268" "pfc-reach" Warning
        "A RoCE flow's path crosses a link so long (its length, or a circuit's RTT) that the PFC \
         headroom a port needs to stay lossless, by the NVIDIA mlx5 driver's formula in \
         catalog/physics.yaml, is more than the whole packet buffer of a switch at its ends. PFC \
         is hop by hop: no configuration makes that link lossless. Keep RoCE within a site, or \
         carry the flow over TCP across the WAN.";
    DIRECT_CABLE_SUBNET = "E0271" "direct-cable-subnet" Error
        "Two hosts are cabled to each other with no switch between them, and the ports at the \
         two ends hold addresses in different subnets. Nothing routes on a bare cable: each host \
         sends only to its own subnet there, so no packet crosses. Give both ports addresses in \
         one subnet (or leave them to `addressing.dtn`, which puts every DTN in one subnet).";
    STRIPE_PORT = "E0272" "stripe-port" Error
        "A flow's `stripe:` names the sender's ports its pairs are striped over, one stream set \
         per port bound to that port's address and leaving by its cable. Each must be a port \
         of every sending host, named once, cabled, and not a member of a bond (a bond's \
         members carry no address of their own: the bond already spreads streams over them). \
         RDMA flows are not striped (one queue pair set per connection, bound by RDMA-CM).";
    RAID_ARRAY = "E0273" "raid-array" Error
        "A RAID array cannot be built as declared: fewer members than its level needs (RAID 0 \
         and RAID 1 two, RAID 5 three, RAID 6 four, RAID 10 an even four or more), more than \
         its controller attaches, a level the controller does not build, or a host with both \
         NVMe drives and RAID arrays (democ models one local store per host: a flow's `nvme` \
         or `raid` reads and writes it). A flow that reads or writes `raid` on a host with no \
         array is refused too.";
    PIN_SOCKET = "E0274" "pin-socket" Error
        "A flow's `pin:` names a CPU socket its host does not have (sockets count from 0 up \
         to the host's `sockets`, default the chassis'). Pinning runs the transfer with \
         `numactl -N <socket>`, which fails on a node the machine lacks.";
    NO_OS_CONFIG = "E0275" "no-os-config" Error
        "A switch with `os: none` (a P4 or FPGA board, a packet broker) runs no switch OS, \
         so democ writes no config for it and nothing would apply a control-plane setting: \
         OpenFlow, BGP (`asn`, `router_id`) or a hosts' `gateway:`. Program the device with \
         its own tools, and leave those settings to the switches around it.";
    // ---- OpenFlow rulesets (lowering) ---------------------------------------------------
    OPENFLOW_RULE_CONFLICT = "E0280" "openflow-rule-conflict" Error
        "Two flows need rules on one OpenFlow switch with the same priority and match (the same \
         in_port, ether type, source and destination address) but different actions: the switch \
         keeps only one, so one flow would follow the other's path. Two flows between the same \
         hosts must take the same ports through every OpenFlow switch they share.";
    OPENFLOW_HOP_UNRULED = "W0281" "openflow-hop-unruled" Warning
        "A flow enters an OpenFlow switch on a port under the controller, and no rule can carry it \
         on: it leaves through a port that is not under the controller and the vendor has no NORMAL \
         action to hand packets to the legacy pipeline, or a port has no OpenFlow number in the \
         model's port map (catalog `openflow.port_numbers`). democ writes the flow's rules on its \
         other hops; on this one the packets meet the table-miss entry, so the flow will not pass \
         until the hop's ports are both under the controller or both legacy.";
    OPENFLOW_METERS = "E0282" "openflow-meters" Error
        "The flows with a `cap` need more OpenFlow meters on a switch than its model's meter table \
         holds (catalog `openflow.meters`; absent means the model has no meters). One meter per \
         capped flow on each switch where its pairs first enter OpenFlow.";
    OPENFLOW_PORT_NUMBER = "E0283" "openflow-port-number" Error
        "The model's port map (catalog `openflow.port_numbers`) gives two ports or port-channels \
         under the controller the same OpenFlow port number, so rules cannot tell them apart.";
    OPENFLOW_PORT_MAP = "E0284" "openflow-port-map" Error
        "An OpenFlow switch's OS does not document how its agent numbers ports (the rulesets' \
         `in_port` and `output` are those numbers), and the spec gives no `openflow.port_map` \
         for the switch, or one that lacks a port under the controller. Numbers democ invented \
         would send the show's traffic out of the wrong ports. Copy the switch's own numbers \
         (the help names the command that prints them) into `port_map`, or declare democ's \
         numbering a placeholder (`placeholder_port_map: true`) until the switch is racked.";
    OPENFLOW_PORT_MAP_PLACEHOLDER = "W0285" "openflow-port-map-placeholder" Warning
        "The spec declares an OpenFlow switch's port numbers placeholders \
         (`placeholder_port_map`): democ numbers the ports itself, and the rulesets are right \
         only if the switch happens to number them the same. Replace the placeholders with the \
         switch's own numbers (`openflow.port_map`) before the show.";
    // ---- lowering: device configs -------------------------------------------------------
    FABRIC_NUMA = "W0290" "fabric-numa" Warning
        "Some of the drives an NVMe-oF target exports hang off another CPU socket than the NIC \
         the fabric uses: every read of those drives crosses the socket interconnect on its way \
         to the NIC. democ predicts that share at the cross-socket factor of catalog/physics.yaml \
         (ESnet fasterdata measures up to 2x loss) and says what the fabric reaches. Put the NIC \
         on the drives' socket, add a NIC per socket, or export only the NIC socket's drives.";
    FABRIC_UNCARRIED = "W0291" "fabric-uncarried" Warning
        "An NVMe-oF fabric joins a target to an initiator that no declared flow of the fabric's \
         protocol joins. democ routes, writes OpenFlow rules and lossless (PFC, ECN, DSCP) settings \
         for, and predicts only declared flows, so nothing makes the fabric's path forward or stay \
         lossless. Declare a flow from the target to its initiators (`protocol: rdma` or `tcp`, \
         `source: nvme`) at the rate the fabric should carry.";
    VENDOR_UNSUPPORTED = "E0301" "vendor-unsupported" Error
        "The spec asks a switch for something its OS cannot do, or that democ's vendor data \
         (templates/<vendor>/vendor.yaml) has no confirmed syntax for, and the generated config \
         would be wrong without it: OpenFlow on Arista EOS, an OpenFlow mode or version the OS \
         lacks, a breakout mode or port speed the OS has no keyword for, a routed port on a pure \
         OpenFlow switch. Pick another OS or model, change the request, or add the syntax to \
         vendor.yaml.";
    CONFIG_INCOMPLETE = "E0302" "config-incomplete" Error
        "A device config needs a value the spec does not give: a controller for an OpenFlow \
         switch, an `asn` for a switch that peers over BGP on a WAN connection with `peer_asn`, a \
         prefix length for a management address (set `addressing.mgmt`).";
    VENDOR_MANUAL = "W0303" "vendor-manual" Warning
        "The generated config is correct, but something the spec asks for is not in it because \
         democ has no confirmed syntax for it on this OS (FEC on FTOS, PicOS and Onyx; PFC/ECN on \
         PicOS, ECN on FTOS; the CrossFlow controller connection on PicOS), the OS does not allow \
         it (a datapath id on OS10 or Onyx), or the OS caps it (EOS MTU 9214). The help line says \
         what to configure by hand. democ never drops a request silently.";
    UNCONFIRMED = "W0305" "unconfirmed" Warning
        "A switch's generated configuration or OpenFlow rules rely on what its vendor's manual, \
         as far as democ's sources go (templates/<vendor>/vendor.yaml), neither confirms nor \
         rules out: a config line whose syntax vendor.yaml marks unconfirmed (a breakout or \
         speed keyword) or a match field or action in the OS's OpenFlow profile marked \
         unconfirmed. \
         The build writes them, and lists them once per switch so they are tried on the switch \
         or a lab unit before the show; what the manual rules out is an error instead (E0301).";
    CONFIG_PARTIAL = "W0304" "config-partial" Warning
        "A device config leaves an optional part out because the spec lacks a value it needs: a \
         management address outside every `addressing.mgmt` pool has no prefix length, so the \
         management port is not configured.";
    MANAGEMENT_GLOBAL_TABLE = "W0306" "management-global-table" Warning
        "Switches keep their management port in a management VRF with a default route through \
         the management router (`show.management.vrf`, default `MGMT`), apart from the data \
         plane. An OpenFlow switch that reaches its controller over the management port \
         (`controller_via: mgmt`) on an OS whose OpenFlow agent connects only from the global \
         table (EOS: its `controller` command takes no VRF) keeps the port in the global table \
         instead, default route included: a data-plane route must be more specific to win, and \
         traffic with no better route leaves by the management port. Reach the controller in \
         band to keep management in its VRF.";
    OS_WITHOUT_OPENFLOW = "E0307" "os-without-openflow" Error
        "A switch with `openflow:` (a mode other than `off`) runs an OS with no OpenFlow agent \
         at all: SONiC forwards only by its own tables (config_db.json's VLANs, port-channels \
         and interfaces, FRR's routes), Cumulus Linux by what its NVUE configuration sets up \
         (the Linux bridge, bonds, FRR), and no controller can program either. democ does not \
         translate the controller's rules into those tables. Drop `openflow:` (or set `mode: \
         off`) and democ writes the flows' VLANs and routes into the switch's config, as for \
         any legacy switch; where the demo needs a controller to steer flows, put the OpenFlow \
         ports on another switch of the path whose OS has an agent (the help lists them).";
    DEAD_CONFIG = "W0310" "dead-config" Warning
        "Configuration that carries nothing: a VLAN trunked between switches that reaches no \
         host, circuit or flow; a routed link between switches that no flow crosses and no BGP \
         session runs over; an OpenFlow instance with no port in it (it still carves the \
         switch's tables for OpenFlow, a reload on FTOS 9, and holds a controller session). \
         democ writes what the spec asks for and says so once per item: remove it from the \
         spec, or give it the hosts, flows or ports it was meant for.";
    // ---- democ verify: result files from the show floor ----------------------------------
    RESULT_UNREADABLE = "E0601" "result-unreadable" Error
        "`democ verify` could not read a result file or folder: it is missing, not a regular \
         file (a FIFO, a device), reached through a symlink inside a result folder, larger \
         than verify reads (128 MiB), or not UTF-8 text. Result folders come from the show \
         floor and are read like build folders: no symlink is followed below the folder \
         named.";
    RESULT_NAME = "E0602" "result-name" Error
        "A result file's name does not say what it is about, or names something the build \
         does not have. Host results are named by the host scripts, \
         `<flow>+<source>+<sink>+<host>+<start>.<tool>` (`iperf3.json`, `ib_write_bw.txt`, \
         `fio-read.json`, `fio-write.json`, `nvmeof-read.json`, `nvmeof-write.json`); \
         switch state is saved as `<switch>+<state>+<time>.json` (`counters`, `rates`, \
         `transceiver`, `lldp`: EOS `show ... | json`) or `.txt` (`dump-ports`, \
         `dump-flows`: `ovs-ofctl`). In a folder, files not named so are skipped; a file \
         named on the command line must be one. The flow, the pair, the host and the switch \
         must be the build's (a result of another build, or of a flow since renamed).";
    RESULT_SYNTAX = "E0603" "result-syntax" Error
        "A result file is not in its tool's format: JSON that does not parse (a report cut \
         short when the test was stopped, two reports in one file), ib_write_bw output \
         without its `#bytes ... BW average` table, `ovs-ofctl` output without its reply \
         line. The location points where the reading stopped.";
    RESULT_CONTENT = "E0604" "result-content" Error
        "A result file is in its tool's format but does not hold what verify reads: iperf3 \
         reported an error (`\"error\"`: the server was not running, the connection was \
         refused), a field is missing or of the wrong type (iperf3's `end.sum_received`, \
         fio's `jobs`, EOS's `interfaces` or `lldpNeighbors`), or a number is negative or not \
         finite.";
    // ---- the lab across hosts (`democ lab split`, `lab up --on`) ------------------------
    LAB_HOSTS = "E0701" "lab-hosts" Error
        "`democ lab split --lab-hosts` names the machines a lab is spread over, as \
         `NAME=ADDRESS` pairs separated by commas, or a file with one `NAME,ADDRESS` (or \
         `NAME=ADDRESS`) per line (`#` starts a comment). A name is lowercase letters, digits \
         and `-`, starting with a letter or digit, at most 20 characters (it becomes part of \
         the lab's and its containers' names); an address is the machine's IPv4 or IPv6 \
         underlay address, which the other hosts' VXLAN tunnels are sent to. Names and \
         addresses must each be unique, and a split needs at least two hosts.";
    LAB_PARTITION = "E0702" "lab-partition" Error
        "The build's lab cannot be spread over the lab hosts named: it has fewer nodes than \
         there are hosts, so some host would get none. Name fewer hosts, or deploy the lab \
         on one machine (`democ lab up`).";
    UNKNOWN_LAB_HOST = "E0703" "unknown-lab-host" Error
        "`democ lab up --on NAME` deploys the part of a split lab that `democ lab split` \
         placed on lab host NAME; the build's `lab/split/partition.json` names no such host. \
         The help line lists the hosts it names; `democ lab split` again to change them.";
}

/// Errors that say the show cannot do what it asks (a flow or link beyond its
/// capacity, an optic beyond its reach or budget, a card beyond its slot), not that its
/// configuration would be wrong: `democ plan` still predicts through them, and `democ
/// build --allow-infeasible` builds despite them.
pub(crate) const FEASIBILITY: &[Code] = &[OPTICAL_BUDGET, OPTIC_REACH, PCIE_LANES, OVERSUBSCRIBED];

/// Looks a code up by id (`E0101`, case-insensitive) or name (`unknown-reference`).
pub(crate) fn find(query: &str) -> Option<Code> {
    ALL.iter()
        .copied()
        .find(|c| c.id.eq_ignore_ascii_case(query) || c.name == query)
}
