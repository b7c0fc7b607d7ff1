"""What the raw output screen finds in a tool's text: every finding of a line named with its
line, text split by invisible characters found, /root alone passed over."""
from fsatlas.results import privacy


def test_every_finding_is_named_with_its_line():
    text = ("Iozone: Performance Test of File I/O\n"
            "Command line used: /home/alice/iozone -a -f /mnt/x\n"
            "Machine = build.example.com at 10.0.0.7, mail bob@example.org\n")
    found = privacy.raw_finding(text)
    assert found.split("; ") == ["line 2 looks like a user's home folder ('/home/alice')",
                                 "line 3 looks like a host name ('build.example.com')",
                                 "line 3 looks like an IPv4 address ('10.0.0.7')",
                                 "line 3 looks like an e-mail address ('bob@example.org')"]


def test_text_split_by_invisible_characters_is_found_and_root_alone_is_not_personal():
    assert privacy.raw_finding("Command line used: /h\u200bome/alice/iozone") == \
        "line 1 looks like a user's home folder ('/home/alice')"
    assert privacy.raw_finding("cd /r\u200boot && ./iozone") is None
    assert privacy.raw_finding("Command line used: /root/iozone -a") is None


def test_serials_in_a_disk_line_are_found():
    found = privacy.raw_finding("Disk: Samsung SSD 970 EVO S5SUNG0N123456Z, WDC WD40EFRX WD-WCC7K4ZXJ2L1\n")
    assert "'S5SUNG0N123456Z'" in found and "'WCC7K4ZXJ2L1'" in found


def test_a_long_list_of_findings_is_cut_after_ten():
    found = privacy.raw_finding("".join(f"at 10.0.0.{i}\n" for i in range(1, 30)))
    assert found.count("IPv4") == privacy.MAX_LISTED and found.endswith("; and more")


def test_a_serial_added_to_a_device_model_is_found_and_model_numbers_are_not():
    for model in ("KINGSTON SA400S37240G", "CT1000MX500SSD1", "HUS726T4TALA6L4", "ST4000DM004-2CV104", "SSDPEKNW010T8"):
        assert privacy.findings({"target": {"device_model": model}}) == [], model
    for model, serial in (("Samsung SSD 970 EVO S5SUNG0N123456Z", "S5SUNG0N123456Z"),
                          ("WDC WD40EFRX-68N32N0 WD-WCC7K4ZXJ2L1", "WCC7K4ZXJ2L1"),
                          ("Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0N123456A", "S4EWNX0N123456A")):
        ((where, what),) = privacy.findings({"target": {"device_model": model}})
        assert where == "/target/device_model" and f"({serial!r})" in what
