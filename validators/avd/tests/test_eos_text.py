from democ_validators_avd.convert import compress_vlans
from democ_validators_avd.eos_text import normalize, parse


def test_parse_nests_sections_and_drops_comments():
    text = """! a comment
hostname x
!
interface Ethernet1
   description  two  spaces
   !
   uc-tx-queue 3
      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes
!
router bgp 1
   address-family ipv4
      neighbor 10.0.0.1 activate
end
"""
    assert parse(text) == {
        ("hostname x", ""),
        ("interface Ethernet1", ""),
        ("interface Ethernet1", "description two spaces"),
        ("interface Ethernet1", "uc-tx-queue 3"),
        (
            "interface Ethernet1",
            "uc-tx-queue 3 > random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes",
        ),
        ("router bgp 1", ""),
        ("router bgp 1", "address-family ipv4"),
        ("router bgp 1", "address-family ipv4 > neighbor 10.0.0.1 activate"),
        ("end", ""),
    }


def test_vlan_lists_compare_as_sets():
    assert normalize("switchport trunk allowed vlan 12,10-11") == "switchport trunk allowed vlan 10,11,12"
    assert compress_vlans([20, 10, 11, 12]) == "10-12,20"
