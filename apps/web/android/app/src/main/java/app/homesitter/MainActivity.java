package app.homesitter;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
