"""democ's SONiC config_db.json files checked against SONiC's YANG models."""
